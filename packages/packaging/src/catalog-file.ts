import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileBasedCatalog } from './file-based-catalog.js';
import { REPO_ROOT } from './repo-root.js';

/** The committed file-based catalog (serve it with `opm serve catalog/`, or build it into a catalog image). */
export const CATALOG_FILE = join(REPO_ROOT, 'catalog/windows-machine-config-operator/catalog.yaml');
/** Where the release pushes the bundle image (docs/install.md). */
export const BUNDLE_IMAGE = 'quay.io/wmco-ts/operator-bundle:0.1.0';

/** The catalog for a CSV text and the committed bundle annotations. */
export function catalogFor(csvText: string): string {
  const annotations = readFileSync(join(REPO_ROOT, 'bundle/metadata/annotations.yaml'), 'utf8');
  return fileBasedCatalog(csvText, annotations, BUNDLE_IMAGE);
}
