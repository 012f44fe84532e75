import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderTemplate } from './chart-template.js';
import { chartData } from './render-chart.js';
import { REPO_ROOT } from './repo-root.js';
import { objectKey, type ManifestDoc } from './manifest-files.js';
import { withoutRecommendedLabels } from './recommended-labels.js';
import { chartDocs, deployDocs, OPERATOR_NS } from './repo-files.js';

/** Objects by key, without the recommended labels (the chart adds Helm's; chart-labels.test.ts checks them). */
const byKey = (docs: readonly ManifestDoc[]): Map<string, unknown> =>
  new Map(docs.map((d) => [objectKey(d.object), withoutRecommendedLabels(d.object)]));

function envOf(docs: readonly ManifestDoc[]): Map<string, string | undefined> {
  const d = docs.find((x) => x.object['kind'] === 'Deployment')!.object as {
    spec: { template: { spec: { containers: { env: { name: string; value?: string }[] }[] } } };
  };
  return new Map(d.spec.template.spec.containers[0]!.env.map((e) => [e.name, e.value]));
}

test('with default values the chart renders exactly deploy/ apart from the recommended labels (the Namespace on request)', (t) => {
  const deploy = byKey(deployDocs());
  const nsKey = `Namespace//${OPERATOR_NS}`;
  const chart = byKey(chartDocs());
  t.deepEqual([...chart.keys()].sort(), [...deploy.keys()].filter((k) => k !== nsKey).sort());
  for (const [key, object] of chart) t.deepEqual(object, deploy.get(key), key);
  const withNs = byKey(chartDocs({ values: { namespace: { create: true } } }));
  t.deepEqual(withNs.get(nsKey), deploy.get(nsKey));
});

test('a release in another namespace puts every namespaced object of the operator there', (t) => {
  const docs = chartDocs({ namespace: 'wmco' });
  const foreign = [
    'openshift-machine-config-operator',
    'openshift-config',
    'kube-system',
    'openshift-machine-api',
    'openshift-cluster-api',
    'openshift-cloud-credential-operator',
    'default',
  ];
  for (const d of docs) {
    const ns = (d.object['metadata'] as { namespace?: string }).namespace;
    t.true(ns === undefined || ns === 'wmco' || foreign.includes(ns), `${objectKey(d.object)}`);
  }
  t.false(JSON.stringify(docs).includes(OPERATOR_NS));
});

test('the CredentialsRequests name the minted Secret in the release namespace; root credentials only when asked', (t) => {
  const docs = chartDocs({ namespace: 'wmco' });
  const requests = docs.filter((d) => d.object['kind'] === 'CredentialsRequest');
  t.deepEqual(requests.map((d) => (d.object['metadata'] as { name: string }).name).sort(), [
    'windows-machine-config-operator-aws',
    'windows-machine-config-operator-azure',
    'windows-machine-config-operator-gcp',
  ]);
  for (const r of requests)
    t.deepEqual((r.object['spec'] as { secretRef: unknown }).secretRef, {
      name: 'windows-machine-config-operator-cloud-credentials',
      namespace: 'wmco',
    });
  const inKubeSystem = (d: ReturnType<typeof chartDocs>): string[] =>
    d
      .filter((x) => (x.object['metadata'] as { namespace?: string }).namespace === 'kube-system')
      .map((x) => objectKey(x.object));
  t.deepEqual(inKubeSystem(docs), []);
  const root = chartDocs({ namespace: 'wmco', values: { rootCloudCredentials: true } });
  t.deepEqual(inKubeSystem(root).sort(), [
    'Role/kube-system/windows-machine-config-operator',
    'RoleBinding/kube-system/windows-machine-config-operator',
  ]);
  const args = (d: ReturnType<typeof chartDocs>): unknown =>
    (
      d.find((x) => x.object['kind'] === 'Deployment')?.object['spec'] as {
        template: { spec: { containers: { args: unknown }[] } };
      }
    ).template.spec.containers[0]?.args;
  t.deepEqual(args(docs), ['run']);
  t.deepEqual(args(root), ['run', '--cloud-credentials=root']);
  t.is(
    chartDocs({ values: { credentialsRequests: false } }).filter(
      (d) => d.object['kind'] === 'CredentialsRequest',
    ).length,
    0,
  );
});

test('clusterApiRbac=false leaves out the Role and RoleBinding in openshift-cluster-api, and only them', (t) => {
  const inNs = (docs: ReturnType<typeof chartDocs>, ns: string): string[] =>
    docs
      .filter((d) => (d.object['metadata'] as { namespace?: string }).namespace === ns)
      .map((d) => objectKey(d.object));
  const all = chartDocs();
  const without = chartDocs({ values: { clusterApiRbac: false } });
  t.deepEqual(inNs(all, 'openshift-cluster-api').sort(), [
    'Role/openshift-cluster-api/windows-machine-config-operator',
    'RoleBinding/openshift-cluster-api/windows-machine-config-operator',
  ]);
  t.deepEqual(inNs(without, 'openshift-cluster-api'), []);
  t.is(without.length, all.length - 2);
});

test('values reach the Deployment: image, replicas, proxy, log rotation, providers, scheduling', (t) => {
  const docs = chartDocs({
    values: {
      image: { repository: 'registry.example/wmco', tag: '1.2.3' },
      replicas: 2,
      proxy: { httpProxy: 'http://proxy:3128', noProxy: '.svc,10.0.0.0/8' },
      servicesLog: { fileSize: '100Mi' },
      providerPackages: ['@acme/wmco-provider-a', 'wmco-provider-b'],
      // As with helm, maps merge with the defaults and null removes a default key.
      nodeSelector: { 'kubernetes.io/os': 'linux', 'node-role.kubernetes.io/control-plane': null },
      tolerations: [],
    },
  });
  const d = docs.find((x) => x.object['kind'] === 'Deployment')!.object as {
    spec: {
      replicas: number;
      template: { spec: Record<string, unknown> & { containers: { image: string }[] } };
    };
  };
  t.is(d.spec.replicas, 2);
  t.is(d.spec.template.spec.containers[0]!.image, 'registry.example/wmco:1.2.3');
  t.deepEqual(d.spec.template.spec['nodeSelector'], { 'kubernetes.io/os': 'linux' });
  t.deepEqual(d.spec.template.spec['tolerations'], []);
  const env = envOf(docs);
  t.is(env.get('HTTP_PROXY'), 'http://proxy:3128');
  t.false(env.has('HTTPS_PROXY'), 'empty proxy values are left out');
  t.is(env.get('NO_PROXY'), '.svc,10.0.0.0/8');
  t.is(env.get('SERVICES_LOG_FILE_SIZE'), '100Mi');
  t.is(env.get('WMCO_PROVIDER_PACKAGES'), '@acme/wmco-provider-a,wmco-provider-b');
});

test('serviceMonitor.enabled adds a ServiceMonitor of the metrics Service, which selects the operator pods', (t) => {
  const docs = chartDocs({ values: { serviceMonitor: { enabled: true, interval: '15s' } } });
  const monitor = docs.find((d) => d.object['kind'] === 'ServiceMonitor')?.object as {
    spec: {
      selector: { matchLabels: Record<string, string> };
      endpoints: { port: string; interval: string; scheme: string; tlsConfig: { serverName: string } }[];
    };
  };
  const service = docs.find((d) => objectKey(d.object).endsWith('/windows-machine-config-operator-metrics'))
    ?.object as { metadata: { labels: Record<string, string> }; spec: { selector: Record<string, string> } };
  const deployment = docs.find((d) => d.object['kind'] === 'Deployment')!.object as {
    spec: { template: { metadata: { labels: Record<string, string> } } };
  };
  t.is(monitor.spec.endpoints[0]!.interval, '15s');
  t.is(monitor.spec.endpoints[0]!.scheme, 'https');
  t.is(monitor.spec.endpoints[0]!.port, 'https-metrics');
  t.is(
    monitor.spec.endpoints[0]!.tlsConfig.serverName,
    `windows-machine-config-operator-metrics.${OPERATOR_NS}.svc`,
  );
  for (const [k, v] of Object.entries(monitor.spec.selector.matchLabels)) t.is(service.metadata.labels[k], v);
  for (const [k, v] of Object.entries(service.spec.selector))
    t.is(deployment.spec.template.metadata.labels[k], v);
});

test('NOTES.txt tells how to create the private key Secret in the release namespace', (t) => {
  const chartDir = join(REPO_ROOT, 'charts/wmco');
  const data = chartData(chartDir, { namespace: 'wmco', values: { privateKeySecretName: 'my-key' } });
  const notes = renderTemplate(
    readFileSync(join(chartDir, 'templates/NOTES.txt'), 'utf8'),
    data,
    'NOTES.txt',
  );
  t.regex(
    notes,
    /kubectl create secret generic my-key \\\n\s+--from-file=private-key\.pem=\/path\/to\/key -n wmco/,
  );
});
