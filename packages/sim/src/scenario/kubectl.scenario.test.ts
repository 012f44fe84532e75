import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { createCsr } from '../apiserver/x509.js';
import { startSimCluster, type SimCluster } from '../cluster/sim-cluster.js';
import { ALL_TYPES_YAML, DRAIN_YAML, NS, csrYaml } from './kubectl-fixtures.js';
import { ensureKubectl, Kubectl } from './kubectl-runner.js';
import { waitFor } from './scenario-env.js';

// Debian's kubectl (the dispatcher, kubectl-needs §0) drives the simulated API server; every command is
// asserted on its output.

let sim: SimCluster;
let k: Kubectl;
const missing = ensureKubectl();

test.before(async () => {
  if (missing) throw new Error(missing);
  sim = await startSimCluster({ platform: 'None' });
  const dir = mkdtempSync(join(tmpdir(), 'wmco-kc-'));
  const kubeconfig = join(dir, 'admin.kubeconfig');
  await sim.server.writeKubeconfig(kubeconfig);
  k = new Kubectl(kubeconfig);
  const applied = await k.run(['apply', '-f', '-'], ALL_TYPES_YAML);
  if (applied.code !== 0) throw new Error(`fixture apply failed: ${applied.stderr}`);
  const { csrPem } = await createCsr({ commonName: 'system:node:fixture', organizations: ['system:nodes'] });
  await k.run(['apply', '-f', '-'], csrYaml('fixture-csr', csrPem));
});

test.after.always(async () => {
  await sim?.stop();
});

test.serial('version and api-resources', async (t) => {
  const v = await k.run(['version']);
  t.is(v.code, 0, v.stderr);
  t.regex(v.stdout, /Server Version: v1\.36\.0-wmco-sim/);
  const r = await k.run(['api-resources']);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);
  const ms = await k.run(['get', 'machinesets', '-A']);
  t.regex(
    ms.stdout,
    /^NAMESPACE\s+NAME\s+DESIRED\s+CURRENT\s+READY\s+AVAILABLE\s+AGE$/m,
    'CRD printer columns',
  );
  t.regex(r.stdout, /^machines\s+machine\.openshift\.io\/v1beta1\s+true\s+Machine$/m);
  t.regex(
    r.stdout,
    /^certificatesigningrequests\s+csr\s+certificates\.k8s\.io\/v1\s+false\s+CertificateSigningRequest$/m,
  );
});

test.serial('get -o yaml of every served type', async (t) => {
  const served = sim.server.registry.all().filter((x) => x.review !== true);
  const kinds = served.map((x) => (x.group === '' ? x.plural : `${x.plural}.${x.group}`));
  const out = await k.run(['get', kinds.join(','), '-A', '-o', 'yaml']);
  t.is(out.code, 0, out.stderr);
  const list = parse(out.stdout) as { kind: string; items: { apiVersion: string; kind: string }[] };
  t.is(list.kind, 'List');
  const seen = new Set(list.items.map((i) => `${i.apiVersion}/${i.kind}`));
  const missingKinds = served
    .map((x) => `${x.group === '' ? '' : `${x.group}/`}${x.version}/${x.kind}`)
    .filter((x) => !seen.has(x));
  t.deepEqual(missingKinds, []);
  const infra = parse((await k.run(['get', 'infrastructure', 'cluster', '-o', 'yaml'])).stdout) as {
    status: Record<string, unknown>;
  };
  t.is(infra.status['apiServerInternalURI'], sim.server.url);
  const secret = parse((await k.run(['get', 'secret', 's1', '-n', NS, '-o', 'yaml'])).stdout) as {
    data: Record<string, string>;
  };
  t.is(Buffer.from(secret.data['password'] ?? '', 'base64').toString(), 'hunter2');
});

test.serial(
  'apply -f: created, unchanged, configured; get -l; patch merge and json; label; annotate',
  async (t) => {
    const yaml = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: applied, namespace: ${NS}, labels: {tier: a}}\ndata: {k: one}\n`;
    t.regex((await k.run(['apply', '-f', '-'], yaml)).stdout, /configmap\/applied created/);
    t.regex((await k.run(['apply', '-f', '-'], yaml)).stdout, /configmap\/applied unchanged/);
    t.regex(
      (await k.run(['apply', '-f', '-'], yaml.replace('one', 'two'))).stdout,
      /configmap\/applied configured/,
    );
    t.regex(
      (await k.run(['get', 'cm', '-n', NS, '-l', 'tier=a', '-o', 'name'])).stdout,
      /^configmap\/applied$/m,
    );
    t.regex(
      (await k.run(['patch', 'cm', 'applied', '-n', NS, '--type', 'merge', '-p', '{"data":{"m":"1"}}']))
        .stdout,
      /configmap\/applied patched/,
    );
    t.regex(
      (
        await k.run([
          'patch',
          'cm',
          'applied',
          '-n',
          NS,
          '--type',
          'json',
          '-p',
          '[{"op":"replace","path":"/data/k","value":"three"}]',
        ])
      ).stdout,
      /patched/,
    );
    t.regex(
      (await k.run(['patch', 'cm', 'applied', '-n', NS, '--type', 'merge', '-p', '{"data":{"m":"1"}}']))
        .stdout,
      /patched \(no change\)/,
    );
    t.regex(
      (await k.run(['label', 'cm', 'applied', '-n', NS, 'color=blue'])).stdout,
      /configmap\/applied labeled/,
    );
    t.regex(
      (await k.run(['annotate', 'cm', 'applied', '-n', NS, 'note=hi'])).stdout,
      /configmap\/applied annotated/,
    );
    const got = await k.run([
      'get',
      'cm',
      'applied',
      '-n',
      NS,
      '-o',
      'jsonpath={.data.k},{.data.m},{.metadata.labels.color},{.metadata.annotations.note}',
    ]);
    t.is(got.stdout, 'three,1,blue,hi');
    const cr = await k.run([
      'patch',
      'machine',
      'm1',
      '-n',
      'openshift-machine-api',
      '-p',
      '{"spec":{"providerID":"x"}}',
    ]);
    t.not(cr.code, 0);
    t.regex(
      cr.stderr,
      /application\/strategic-merge-patch\+json is not supported by machine\.openshift\.io\/v1beta1, Kind=Machine/,
    );
  },
);

test.serial('get -w prints a new object as an ADDED event', async (t) => {
  const child = k.spawn(['get', 'cm', '-n', NS, '-l', 'watch=me', '-w', '--output-watch-events']);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  try {
    await k.run(
      ['apply', '-f', '-'],
      `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: watched, namespace: ${NS}, labels: {watch: me}}\n`,
    );
    await waitFor('watch output', () => (out.includes('watched') ? true : undefined), 20_000);
    t.regex(out, /^ADDED\s+watched\s/m);
  } finally {
    child.kill('SIGTERM');
  }
});

test.serial('wait --for=condition and --for=delete (list + watch by metadata.name)', async (t) => {
  const ready = await k.run(['wait', '--for=condition=Ready', 'node/master-0', '--timeout=10s']);
  t.regex(ready.stdout, /node\/master-0 condition met/);
  const yaml = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: held, namespace: ${NS}, finalizers: [example.com/hold]}\n`;
  await k.run(['apply', '-f', '-'], yaml);
  t.regex(
    (await k.run(['delete', 'cm', 'held', '-n', NS, '--wait=false'])).stdout,
    /configmap "held" deleted/,
  );
  const watchesBefore = sim.server.watches.size;
  const waiting = k.run(['wait', '--for=delete', 'cm/held', '-n', NS, '--timeout=30s']);
  // Remove the finalizer only once kubectl's watch is open, so the deletion is seen through the watch.
  await waitFor(
    'kubectl wait watching',
    () => (sim.server.watches.size > watchesBefore ? true : undefined),
    20_000,
  );
  await k.run([
    'patch',
    'cm',
    'held',
    '-n',
    NS,
    '--type',
    'json',
    '-p',
    '[{"op":"remove","path":"/metadata/finalizers"}]',
  ]);
  const done = await waiting;
  t.is(done.code, 0, done.stderr);
  t.regex(done.stdout, /configmap\/held condition met/);
});

test.serial('delete, then the NotFound Status is printed as kubectl prints the real one', async (t) => {
  t.regex((await k.run(['delete', 'cm', 'cm1', '-n', NS])).stdout, /configmap "cm1" deleted/);
  const gone = await k.run(['get', 'cm', 'cm1', '-n', NS]);
  t.not(gone.code, 0);
  t.regex(gone.stderr, /Error from server \(NotFound\): configmaps "cm1" not found/);
});

test.serial('certificate approve (protobuf body) and the signer issues the certificate', async (t) => {
  const { csrPem } = await createCsr({ commonName: 'system:node:kc-node', organizations: ['system:nodes'] });
  t.regex(
    (await k.run(['apply', '-f', '-'], csrYaml('kc-csr', csrPem))).stdout,
    /certificatesigningrequest\.certificates\.k8s\.io\/kc-csr created/,
  );
  const approved = await k.run(['certificate', 'approve', 'kc-csr']);
  t.is(approved.code, 0, approved.stderr);
  t.regex(approved.stdout, /certificatesigningrequest\.certificates\.k8s\.io\/kc-csr approved/);
  const cert = await waitFor('certificate', async () => {
    const r = await k.run(['get', 'csr', 'kc-csr', '-o', 'jsonpath={.status.certificate}']);
    return r.stdout === '' ? undefined : r.stdout;
  });
  t.regex(Buffer.from(cert, 'base64').toString(), /BEGIN CERTIFICATE/);
  t.regex(
    (await k.run(['get', 'csr', 'kc-csr'])).stdout,
    /^kc-csr\s+\d+s\s+kubernetes\.io\/kube-apiserver-client-kubelet\s+admin\s+<none>\s+Approved,Issued$/m,
  );
});

test.serial('cordon and drain --ignore-daemonsets evict through pods/eviction', async (t) => {
  t.regex((await k.run(['cordon', 'worker-0'])).stdout, /node\/worker-0 cordoned/);
  t.is((await k.run(['get', 'node', 'worker-0', '-o', 'jsonpath={.spec.unschedulable}'])).stdout, 'true');
  // Server-side printing (Table): the columns kubectl shows for a real node.
  const nodes = await k.run(['get', 'nodes']);
  t.regex(nodes.stdout, /^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION$/m);
  t.regex(nodes.stdout, /^worker-0\s+Ready,SchedulingDisabled\s+worker\s+\d+s\s+v1\.36\.0$/m);
  t.is((await k.run(['apply', '-f', '-'], DRAIN_YAML)).code, 0);
  const dsPod = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ds-pod\n  namespace: ${NS}\n  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: ds1, uid: ${await dsUid()}, controller: true}]\nspec: {nodeName: drain-me, containers: [{name: c, image: pause}]}\n`;
  t.is((await k.run(['apply', '-f', '-'], dsPod)).code, 0);
  const drained = await k.run(['drain', 'drain-me', '--ignore-daemonsets', '--timeout=20s']);
  t.is(drained.code, 0, drained.stderr);
  t.regex(drained.stdout, /node\/drain-me cordoned/);
  t.regex(drained.stdout, /pod\/app-pod evicted/);
  t.regex(drained.stdout, /node\/drain-me drained/);
  t.regex(drained.stderr, /Warning: ignoring DaemonSet-managed Pods: kc-suite\/ds-pod/);
  const left = await k.run(['get', 'pods', '-n', NS, '-o', 'name']);
  t.notRegex(left.stdout, /app-pod/);
  t.regex(left.stdout, /pod\/ds-pod/);
});

test.serial(
  'auth can-i (protobuf SelfSubjectAccessReview), auth whoami, and --as impersonation under RBAC',
  async (t) => {
    sim.server.rbac = true;
    try {
      const dir = mkdtempSync(join(tmpdir(), 'wmco-kc-op-'));
      const opConfig = join(dir, 'operator.kubeconfig');
      writeFileSync(opConfig, sim.server.kubeconfig(sim.operator));
      const op = new Kubectl(opConfig);
      const sa =
        'system:serviceaccount:openshift-windows-machine-config-operator:windows-machine-config-operator';
      const no = await op.run(['auth', 'can-i', 'list', 'nodes']);
      t.is(no.stdout.trim(), 'no');
      t.is(no.code, 1);
      t.regex((await op.run(['auth', 'whoami'])).stdout, new RegExp(`Username\\s+${sa}`));
      t.is((await k.run(['auth', 'can-i', 'list', 'nodes'])).stdout.trim(), 'yes');
      t.is((await k.run(['auth', 'can-i', 'list', 'nodes', '--as', sa])).stdout.trim(), 'no');
      const forbidden = await op.run(['get', 'nodes']);
      t.regex(
        forbidden.stderr,
        new RegExp(
          `Error from server \\(Forbidden\\): nodes is forbidden: User "${sa}" cannot list resource "nodes"`,
        ),
      );
    } finally {
      sim.server.rbac = false;
    }
  },
);

async function dsUid(): Promise<string> {
  return (await k.run(['get', 'ds', 'ds1', '-n', NS, '-o', 'jsonpath={.metadata.uid}'])).stdout;
}
