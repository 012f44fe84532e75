import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { deploySources } from './csv-sync.js';
import { listYamlFiles, readManifestDir, type ManifestDoc } from './manifest-files.js';
import { renderChart, type RenderOptions } from './render-chart.js';
import { REPO_ROOT } from './repo-root.js';

/** The namespace deploy/ installs into, and the chart's release namespace in the comparisons. */
export const OPERATOR_NS = 'openshift-windows-machine-config-operator';
export const OPERATOR_SA = { name: 'windows-machine-config-operator', namespace: OPERATOR_NS };
export const CSV_FILE = 'bundle/manifests/windows-machine-config-operator.clusterserviceversion.yaml';

export function deployDocs(): ManifestDoc[] {
  return readManifestDir(join(REPO_ROOT, 'deploy'), REPO_ROOT);
}

export function bundleDocs(): ManifestDoc[] {
  return readManifestDir(join(REPO_ROOT, 'bundle'), REPO_ROOT);
}

export function chartDocs(options: RenderOptions = {}): ManifestDoc[] {
  return renderChart(join(REPO_ROOT, 'charts/wmco'), { namespace: OPERATOR_NS, ...options });
}

export function csvObject(): Record<string, unknown> {
  const doc = bundleDocs().find((d) => d.object['kind'] === 'ClusterServiceVersion');
  if (!doc) throw new Error(`no ClusterServiceVersion in ${CSV_FILE}`);
  return doc.object;
}

export function csvText(): string {
  return readFileSync(join(REPO_ROOT, CSV_FILE), 'utf8');
}

/** deploy/'s files as syncCsv wants them. */
export function deploySourceDocs(): ReturnType<typeof deploySources> {
  return deploySources(
    listYamlFiles(join(REPO_ROOT, 'deploy')).map((f) => ({
      text: readFileSync(f, 'utf8'),
      source: relative(REPO_ROOT, f),
    })),
  );
}
