import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContainerLogBuffer } from '../apiserver/container-log-buffer.js';
import { startSimCluster, type SimCluster } from '../cluster/sim-cluster.js';
import { ensureKubectl, Kubectl } from './kubectl-runner.js';
import { waitFor } from './scenario-env.js';

// `kubectl logs` against the simulated API server's pods/<name>/log (issue 30): a Pod, and a Deployment
// whose selector finds it, as the docs' `kubectl logs deployment/...` does.

let sim: SimCluster;
let k: Kubectl;
const NS = 'default';
const log = new ContainerLogBuffer();
const missing = ensureKubectl();

const OBJECTS = `apiVersion: apps/v1
kind: Deployment
metadata: {name: op, namespace: ${NS}}
spec:
  selector: {matchLabels: {name: op}}
  template:
    metadata: {labels: {name: op}}
    spec: {containers: [{name: manager, image: example/op:1}]}
---
apiVersion: v1
kind: Pod
metadata: {name: op-abc12, namespace: ${NS}, labels: {name: op}}
spec: {containers: [{name: manager, image: example/op:1}]}
---
apiVersion: v1
kind: Pod
metadata: {name: silent, namespace: ${NS}}
spec: {containers: [{name: c, image: example/c:1}]}
`;

test.before(async () => {
  if (missing) throw new Error(missing);
  sim = await startSimCluster({ platform: 'None' });
  const dir = mkdtempSync(join(tmpdir(), 'wmco-kc-logs-'));
  await sim.server.writeKubeconfig(join(dir, 'admin.kubeconfig'));
  k = new Kubectl(join(dir, 'admin.kubeconfig'));
  const r = await k.run(['apply', '-f', '-'], OBJECTS);
  if (r.code !== 0) throw new Error(r.stderr);
  sim.server.podLogs.set(NS, 'op-abc12', 'manager', log);
  ['{"msg":"one"}', '{"msg":"two"}', '{"msg":"three"}'].forEach(log.write);
});

test.after.always(async () => {
  await sim?.stop();
});

test.serial('logs pod, --tail, --limit-bytes, -c', async (t) => {
  t.is((await k.run(['logs', 'op-abc12'])).stdout, '{"msg":"one"}\n{"msg":"two"}\n{"msg":"three"}\n');
  t.is((await k.run(['logs', 'op-abc12', '--tail=1'])).stdout, '{"msg":"three"}\n');
  t.is((await k.run(['logs', 'op-abc12', '--limit-bytes=5'])).stdout, '{"msg');
  t.is(
    (await k.run(['logs', 'pod/op-abc12', '-c', 'manager', '--tail=2'])).stdout,
    '{"msg":"two"}\n{"msg":"three"}\n',
  );
  const wrong = await k.run(['logs', 'op-abc12', '-c', 'nope']);
  t.not(wrong.code, 0);
  t.regex(wrong.stderr, /container nope is not valid for pod op-abc12/);
});

test.serial('logs deployment/NAME finds the pod by the selector', async (t) => {
  const r = await k.run(['logs', 'deployment/op', '--tail=1']);
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout, '{"msg":"three"}\n');
});

test.serial(
  'a container with no log answers 400 as one that has not started; a missing pod 404',
  async (t) => {
    const r = await k.run(['logs', 'silent']);
    t.not(r.code, 0);
    t.regex(r.stderr, /container "c" in pod "silent" is waiting to start/);
    t.regex((await k.run(['logs', 'absent'])).stderr, /pods "absent" not found/);
  },
);

test.serial('logs -f carries later writes', async (t) => {
  const child = k.spawn(['logs', '-f', 'op-abc12', '--tail=0']);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  try {
    // The stream is open once the server has a listener; then a write reaches it.
    await waitFor('follow listener', () => (log.followers > 0 ? true : undefined), 20_000);
    log.write('{"msg":"later"}');
    await waitFor('followed line', () => (out.includes('later') ? true : undefined), 20_000);
    t.is(out, '{"msg":"later"}\n');
  } finally {
    child.kill('SIGTERM');
  }
});
