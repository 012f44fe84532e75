// OpenShift's rules for a host-network operator pod, checked on deploy/, the chart's default render and the
// CSV's install strategy: every port in 9000-9999 (the range OpenShift reserves for host-network
// services), the `hostnetwork-v2` SCC granted and pinned with `openshift.io/required-scc`.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chartDocs, csvObject, deployDocs } from './repo-files.js';
import { REPO_ROOT } from './repo-root.js';

interface PodTemplate {
  metadata?: { annotations?: Record<string, string> };
  spec: { hostNetwork?: boolean; containers: { ports?: { name: string; containerPort: number }[] }[] };
}
type Obj = Record<string, unknown>;

function templates(): [string, PodTemplate][] {
  const fromDocs = (where: string, docs: { object: Obj }[]): [string, PodTemplate][] =>
    docs
      .filter((d) => d.object['kind'] === 'Deployment')
      .map((d) => [where, (d.object['spec'] as { template: PodTemplate }).template]);
  const csv = csvObject() as {
    spec: { install: { spec: { deployments: { spec: { template: PodTemplate } }[] } } };
  };
  return [
    ...fromDocs('deploy/', deployDocs()),
    ...fromDocs('chart', chartDocs()),
    ...csv.spec.install.spec.deployments.map((d): [string, PodTemplate] => ['CSV', d.spec.template]),
  ];
}

test('every port of a host-network pod is in 9000-9999, and --metrics-address defaults to the metrics port', (t) => {
  const all = templates();
  t.is(all.length, 3);
  for (const [where, template] of all) {
    t.true(template.spec.hostNetwork, where);
    for (const p of template.spec.containers.flatMap((c) => c.ports ?? [])) {
      t.true(p.containerPort >= 9000 && p.containerPort <= 9999, `${where}: ${p.name} ${p.containerPort}`);
    }
  }
  const metricsPort = all[0]![1].spec.containers[0]!.ports!.find((p) => p.name === 'https-metrics')!;
  const runCommand = readFileSync(join(REPO_ROOT, 'packages/operator/src/cli/run-command.ts'), 'utf8');
  t.regex(runCommand, new RegExp(`'0\\.0\\.0\\.0:${metricsPort.containerPort}'`));
});

test('the pod asks for the hostnetwork-v2 SCC, which the operator may use, and not hostnetwork', (t) => {
  for (const [where, template] of templates()) {
    t.is(template.metadata?.annotations?.['openshift.io/required-scc'], 'hostnetwork-v2', where);
  }
  const sources: [string, Obj[]][] = [
    ['deploy/', deployDocs().map((d) => d.object)],
    ['chart', chartDocs().map((d) => d.object)],
  ];
  for (const [where, objects] of sources) {
    const rules = objects
      .filter((o) => o['kind'] === 'ClusterRole')
      .flatMap((o) => (o['rules'] as { resources?: string[]; resourceNames?: string[] }[]) ?? [])
      .filter((r) => r.resources?.includes('securitycontextconstraints'));
    t.deepEqual(
      rules.flatMap((r) => r.resourceNames ?? []),
      ['hostnetwork-v2'],
      where,
    );
  }
});
