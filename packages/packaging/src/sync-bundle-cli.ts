#!/usr/bin/env node
// Regenerates the CSV's install strategy from deploy/ and its icon from bundle/icon.svg, and the
// file-based catalog catalog/windows-machine-config-operator/catalog.yaml from the bundle. `--check` exits 1 (and writes nothing) when the
// committed CSV differs. The release step adds `--operator-image-digest sha256:<hex> --output <file>`: it
// writes the CSV with every image referenced by that digest (and `disconnected` claimed) to <file>, leaving
// the committed CSV alone.
// Usage: node packages/packaging/dist/sync-bundle-cli.js [--check] [--operator-image-digest D --output F]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { withIcon } from './csv-icon.js';
import { CATALOG_FILE, catalogFor } from './catalog-file.js';
import { deploySources, syncCsv } from './csv-sync.js';
import { listYamlFiles } from './manifest-files.js';
import { imageRepository, ImageDigestError, pinImages } from './pin-images.js';
import { REPO_ROOT } from './repo-root.js';

const CSV_PATH = join(
  REPO_ROOT,
  'bundle/manifests/windows-machine-config-operator.clusterserviceversion.yaml',
);

const { values } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    'operator-image-digest': { type: 'string' },
    output: { type: 'string' },
  },
});
const files = listYamlFiles(join(REPO_ROOT, 'deploy')).map((f) => ({
  text: readFileSync(f, 'utf8'),
  source: relative(REPO_ROOT, f),
}));
const current = readFileSync(CSV_PATH, 'utf8');
const next = withIcon(
  syncCsv(current, deploySources(files)),
  readFileSync(join(REPO_ROOT, 'bundle/icon.svg'), 'utf8'),
);
const digest = values['operator-image-digest'];
if (digest !== undefined) {
  try {
    if (values.output === undefined)
      throw new ImageDigestError('--operator-image-digest needs --output <file>');
    const image = /^\s+containerImage: (\S+)$/m.exec(next)?.[1] ?? '';
    writeFileSync(values.output, pinImages(next, new Map([[imageRepository(image), digest]])));
    process.stdout.write(`wrote ${values.output}\n`);
  } catch (e) {
    if (!(e instanceof ImageDigestError)) throw e;
    process.stderr.write(`sync-bundle: ${e.message}\n`);
    process.exitCode = 2;
  }
} else if (values.check) {
  if (catalogFor(next) !== readFileSync(CATALOG_FILE, 'utf8')) {
    process.stderr.write(
      `${relative(REPO_ROOT, CATALOG_FILE)} is out of date; run pnpm --filter @wmco/packaging sync-bundle\n`,
    );
    process.exitCode = 1;
  }
  if (next !== current) {
    process.stderr.write(
      `${relative(REPO_ROOT, CSV_PATH)} is out of date; run pnpm --filter @wmco/packaging sync-bundle\n`,
    );
    process.exitCode = 1;
  }
} else {
  if (next !== current) {
    writeFileSync(CSV_PATH, next);
    process.stdout.write(`updated ${relative(REPO_ROOT, CSV_PATH)}\n`);
  }
  mkdirSync(dirname(CATALOG_FILE), { recursive: true });
  writeFileSync(CATALOG_FILE, catalogFor(next));
}
