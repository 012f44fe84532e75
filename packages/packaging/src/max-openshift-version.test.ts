import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { csvObject } from './repo-files.js';
import { REPO_ROOT } from './repo-root.js';

/** The operator's accepted Kubernetes range, read from the check it runs at start. */
function supported(): { min: string; maxMinor: string } {
  const src = readFileSync(join(REPO_ROOT, 'packages/core/src/cluster/cluster-validation.ts'), 'utf8');
  const m = /SUPPORTED_KUBERNETES = \{ min: '([\d.]+)', maxMinor: '([\d.]+)' \}/.exec(src);
  if (!m) throw new Error('SUPPORTED_KUBERNETES not found in cluster-validation.ts');
  return { min: m[1]!, maxMinor: m[2]! };
}

test('olm.maxOpenShiftVersion and minKubeVersion match the Kubernetes versions the operator accepts', (t) => {
  const { min, maxMinor } = supported();
  const csv = csvObject() as {
    metadata: { annotations: Record<string, string> };
    spec: { minKubeVersion: string };
  };
  t.is(csv.spec.minKubeVersion, min);
  const properties = JSON.parse(csv.metadata.annotations['olm.properties'] ?? '[]') as {
    type: string;
    value: string;
  }[];
  const max = properties.filter((p) => p.type === 'olm.maxOpenShiftVersion');
  t.is(max.length, 1);
  // OpenShift 4.N ships Kubernetes 1.(N+13) (4.15 = 1.28, 4.18 = 1.31, 4.20 = 1.33).
  const kubeMinor = Number(maxMinor.split('.')[1]);
  t.is(max[0]?.value, `4.${kubeMinor - 13}`);
});
