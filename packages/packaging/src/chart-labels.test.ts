import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { objectKey, type ManifestDoc } from './manifest-files.js';
import { RECOMMENDED_LABELS } from './recommended-labels.js';
import { chartDocs } from './repo-files.js';
import { REPO_ROOT } from './repo-root.js';

const chart = parse(readFileSync(join(REPO_ROOT, 'charts/wmco/Chart.yaml'), 'utf8')) as {
  name: string;
  version: string;
  appVersion: string;
};

type Labels = Record<string, string>;
type Workload = {
  metadata: { labels?: Labels };
  spec: { selector: { matchLabels: Labels }; template: { metadata: { labels?: Labels } } };
};

/** Every value combination that adds or removes objects, so each object is rendered at least once. */
const everything = (releaseName: string): ManifestDoc[] =>
  chartDocs({
    releaseName,
    values: { namespace: { create: true }, serviceMonitor: { enabled: true }, rootCloudCredentials: true },
  });

function expected(releaseName: string): Labels {
  return {
    'app.kubernetes.io/name': 'windows-machine-config-operator',
    'app.kubernetes.io/instance': releaseName,
    'app.kubernetes.io/version': chart.appVersion,
    'app.kubernetes.io/component': 'operator',
    'app.kubernetes.io/part-of': chart.name,
    'app.kubernetes.io/managed-by': 'Helm',
    'helm.sh/chart': `${chart.name}-${chart.version}`,
  };
}

function missing(labels: Labels | undefined, want: Labels): string[] {
  return RECOMMENDED_LABELS.filter((k) => labels?.[k] !== want[k]).map(
    (k) => `${k}=${labels?.[k] ?? '<none>'} (want ${want[k]})`,
  );
}

test('every object the chart renders carries the recommended labels, the instance being the release', (t) => {
  for (const release of ['wmco', 'other']) {
    const docs = everything(release);
    t.true(docs.length > 20, `${docs.length} objects`);
    for (const d of docs) {
      const labels = (d.object['metadata'] as { labels?: Labels }).labels;
      t.deepEqual(missing(labels, expected(release)), [], objectKey(d.object));
    }
  }
});

test("the Deployment's selector holds no label that changes across upgrades and is a subset of its pod template's labels", (t) => {
  const deployments = everything('rel').filter((d) => d.object['kind'] === 'Deployment');
  t.is(deployments.length, 1);
  const d = deployments[0]!.object as Workload;
  const podLabels = d.spec.template.metadata.labels ?? {};
  for (const [k, v] of Object.entries(d.spec.selector.matchLabels))
    t.is(podLabels[k], v, `selector ${k}=${v} not on the pod template`);
  t.deepEqual(missing(podLabels, expected('rel')), [], 'pod template labels');
  const unstable = ['app.kubernetes.io/version', 'helm.sh/chart', 'app.kubernetes.io/managed-by'];
  t.deepEqual(
    Object.keys(d.spec.selector.matchLabels).filter((k) => unstable.includes(k)),
    [],
    'selector labels must not change across upgrades',
  );
});

test('the Services that select pods select the operator pods', (t) => {
  const docs = everything('rel');
  const pod = (docs.find((d) => d.object['kind'] === 'Deployment')!.object as Workload).spec.template.metadata
    .labels!;
  const services = docs.filter((d) => d.object['kind'] === 'Service');
  for (const s of services) {
    const selector = (s.object['spec'] as { selector?: Labels }).selector ?? {};
    for (const [k, v] of Object.entries(selector)) t.is(pod[k], v, `${objectKey(s.object)}: ${k}`);
  }
});
