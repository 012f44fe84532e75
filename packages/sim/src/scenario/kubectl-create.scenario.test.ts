import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimCluster, type SimCluster } from '../cluster/sim-cluster.js';
import { ensureKubectl, Kubectl } from './kubectl-runner.js';

// The `kubectl create` commands of the docs, which send protobuf bodies (issue 30), against the simulated
// API server; each object is read back as JSON.

let sim: SimCluster;
let k: Kubectl;
let dir: string;
const NS = 'openshift-windows-machine-config-operator';
const missing = ensureKubectl();

test.before(async () => {
  if (missing) throw new Error(missing);
  sim = await startSimCluster({ platform: 'None' });
  dir = mkdtempSync(join(tmpdir(), 'wmco-kc-create-'));
  await sim.server.writeKubeconfig(join(dir, 'admin.kubeconfig'));
  k = new Kubectl(join(dir, 'admin.kubeconfig'));
});

test.after.always(async () => {
  await sim?.stop();
});

async function getJson(args: readonly string[]): Promise<Record<string, unknown>> {
  const r = await k.run(['get', ...args, '-o', 'json']);
  if (r.code !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

test('create secret generic --from-file (binary-safe data, type Opaque)', async (t) => {
  const key = join(dir, 'key');
  const content = Buffer.from([0x2d, 0x2d, 0x00, 0xff, 0x0a, 0x41]);
  writeFileSync(key, content);
  const r = await k.run([
    '-n',
    NS,
    'create',
    'secret',
    'generic',
    'cloud-private-key',
    `--from-file=private-key.pem=${key}`,
  ]);
  t.is(r.code, 0, r.stderr);
  const s = await getJson(['-n', NS, 'secret', 'cloud-private-key']);
  t.deepEqual(s['data'], { 'private-key.pem': content.toString('base64') });
  t.is(s['type'], 'Opaque');
});

test('create serviceaccount', async (t) => {
  const r = await k.run(['-n', NS, 'create', 'serviceaccount', 'docs-sa']);
  t.is(r.code, 0, r.stderr);
  const sa = await getJson(['-n', NS, 'serviceaccount', 'docs-sa']);
  t.is((sa['metadata'] as { name: string }).name, 'docs-sa');
});

test('create deployment: selector, template labels and container kept', async (t) => {
  const r = await k.run([
    '-n',
    NS,
    'create',
    'deployment',
    'web',
    '--image=registry.example/web:1',
    '--replicas=2',
    '--port=8080',
  ]);
  t.is(r.code, 0, r.stderr);
  const d = await getJson(['-n', NS, 'deployment', 'web']);
  const spec = d['spec'] as {
    replicas: number;
    selector: unknown;
    template: {
      metadata: { labels: unknown };
      spec: { containers: { name: string; image: string; ports: unknown }[] };
    };
  };
  t.is(spec.replicas, 2);
  t.deepEqual(spec.selector, { matchLabels: { app: 'web' } });
  t.deepEqual(spec.template.metadata.labels, { app: 'web' });
  t.like(spec.template.spec.containers[0], { name: 'web', image: 'registry.example/web:1' });
  t.deepEqual(spec.template.spec.containers[0]?.ports, [{ containerPort: 8080 }]);
});
