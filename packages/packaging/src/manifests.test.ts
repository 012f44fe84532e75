import test from 'ava';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { objectKey, objectProblems } from './manifest-files.js';
import { bundleDocs, chartDocs, csvObject, deployDocs } from './repo-files.js';
import { REPO_ROOT } from './repo-root.js';

test('every file in deploy/ is a Kubernetes object of one kind, numbered for apply order', (t) => {
  const docs = deployDocs();
  t.true(docs.length >= 9);
  t.deepEqual(docs.flatMap(objectProblems), []);
  const kindsByFile = new Map<string, Set<string>>();
  for (const d of docs) {
    const file = basename(d.source.split('#')[0] ?? '');
    t.regex(file, /^\d\d-[a-z-]+\.yaml$/);
    kindsByFile.set(file, (kindsByFile.get(file) ?? new Set()).add(String(d.object['kind'])));
  }
  for (const [file, kinds] of kindsByFile) t.is(kinds.size, 1, `${file} mixes ${[...kinds].join(', ')}`);
  t.is(new Set(docs.map((d) => objectKey(d.object))).size, docs.length, 'no object defined twice');
});

test('every bundle manifest is a Kubernetes object; metadata/annotations.yaml declares a registry+v1 bundle', (t) => {
  const docs = bundleDocs();
  const annotations = docs.find((d) => d.source.startsWith('bundle/metadata/annotations.yaml'));
  const objects = docs.filter((d) => d !== annotations);
  t.deepEqual(objects.flatMap(objectProblems), []);
  t.deepEqual(objects.map((d) => d.object['kind']).sort(), [
    'ClusterServiceVersion',
    'Configuration',
    'PrometheusRule',
    'Secret',
    'Service',
    'Service',
  ]);
  const a = (annotations?.object['annotations'] ?? {}) as Record<string, string>;
  t.is(a['operators.operatorframework.io.bundle.mediatype.v1'], 'registry+v1');
  t.is(a['operators.operatorframework.io.bundle.package.v1'], 'windows-machine-config-operator');
  const channels = (a['operators.operatorframework.io.bundle.channels.v1'] ?? '').split(',');
  t.true(channels.includes(a['operators.operatorframework.io.bundle.channel.default.v1'] ?? '<none>'));
});

test('the rendered chart parses, with defaults and with every option on', (t) => {
  const plain = chartDocs();
  const full = chartDocs({
    values: {
      namespace: { create: true },
      serviceMonitor: { enabled: true },
      proxy: { httpProxy: 'http://proxy:3128', httpsProxy: 'http://proxy:3128', noProxy: '.cluster.local' },
      providerPackages: ['@example/wmco-provider-kubevirt'],
    },
  });
  t.deepEqual([...plain, ...full].flatMap(objectProblems), []);
  t.is(full.length, plain.length + 2);
});

test('the CSV: OwnNamespace only, Kubernetes 1.36 or later, no CRDs', (t) => {
  const spec = csvObject()['spec'] as Record<string, unknown>;
  const modes = spec['installModes'] as { type: string; supported: boolean }[];
  t.deepEqual(
    modes.filter((m) => m.supported).map((m) => m.type),
    ['OwnNamespace'],
  );
  t.is(modes.length, 4);
  t.is(spec['minKubeVersion'], '1.36.0');
  t.deepEqual(spec['customresourcedefinitions'], {});
});

test('the CSV runs the Deployment of deploy/, and the bundle ships deploy/s Service, PrometheusRule and token Secret', (t) => {
  const deployment = deployDocs().find((d) => d.object['kind'] === 'Deployment')!.object;
  const install = (
    csvObject()['spec'] as { install: { spec: { deployments: { name: string; spec: unknown }[] } } }
  ).install.spec;
  t.is(install.deployments.length, 1);
  t.is(install.deployments[0]!.name, (deployment['metadata'] as { name: string }).name);
  t.deepEqual(install.deployments[0]!.spec, deployment['spec']);
  for (const kind of ['Service', 'PrometheusRule', 'Secret']) {
    const object = structuredClone(deployDocs().find((d) => d.object['kind'] === kind)!.object);
    delete (object['metadata'] as Record<string, unknown>)['namespace'];
    t.deepEqual(bundleDocs().find((d) => d.object['kind'] === kind)!.object, object, kind);
  }
});

test('the bundle image labels repeat metadata/annotations.yaml', (t) => {
  const annotations = bundleDocs().find((d) => d.source.startsWith('bundle/metadata/annotations.yaml'))!
    .object['annotations'] as Record<string, string>;
  const labels: Record<string, string> = {};
  for (const line of readFileSync(join(REPO_ROOT, 'bundle/Containerfile'), 'utf8').split('\n')) {
    const m = /^LABEL ([^=\s]+)=(\S+)$/.exec(line);
    if (m) labels[m[1]!] = m[2]!;
  }
  t.deepEqual(labels, annotations);
});
