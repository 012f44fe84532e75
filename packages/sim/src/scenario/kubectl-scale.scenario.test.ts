import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimCluster, type SimCluster } from '../cluster/sim-cluster.js';
import { ensureKubectl, Kubectl } from './kubectl-runner.js';

// Debian's kubectl scales a MachineSet through the scale subresource of the simulated API server: the
// plain form (PATCH .../scale), the precondition forms (GET .../scale, then PUT with its resourceVersion)
// and `get --subresource=scale`. No machine-api runs here, so only spec.replicas is looked at.

let sim: SimCluster;
let k: Kubectl;
const missing = ensureKubectl();
const NS = 'openshift-machine-api';

const MACHINESET = `apiVersion: machine.openshift.io/v1beta1
kind: MachineSet
metadata: {name: win, namespace: ${NS}}
spec:
  replicas: 1
  selector: {matchLabels: {machine.openshift.io/cluster-api-machineset: win}}
  template:
    metadata: {labels: {machine.openshift.io/cluster-api-machineset: win, machine.openshift.io/os-id: Windows}}
    spec: {providerSpec: {value: {apiVersion: sim/v1, kind: SimMachineProviderSpec}}}
`;

test.before(async () => {
  if (missing) throw new Error(missing);
  sim = await startSimCluster({ platform: 'None' });
  const kubeconfig = join(mkdtempSync(join(tmpdir(), 'wmco-kc-')), 'admin.kubeconfig');
  await sim.server.writeKubeconfig(kubeconfig);
  k = new Kubectl(kubeconfig);
  const applied = await k.run(['apply', '-f', '-'], MACHINESET);
  if (applied.code !== 0) throw new Error(`fixture apply failed: ${applied.stderr}`);
});

test.after.always(async () => {
  await sim?.stop();
});

async function replicas(): Promise<string> {
  return (await k.run(['get', 'machineset', 'win', '-n', NS, '-o', 'jsonpath={.spec.replicas}'])).stdout;
}

test.serial('kubectl scale machineset sets spec.replicas through the scale subresource', async (t) => {
  const r = await k.run(['scale', 'machineset', 'win', '--replicas=3', '-n', NS]);
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout.trim(), 'machineset.machine.openshift.io/win scaled');
  t.is(await replicas(), '3');
  const scale = await k.run(['get', 'machineset', 'win', '-n', NS, '--subresource=scale', '-o', 'json']);
  t.is(scale.code, 0, scale.stderr);
  t.like(JSON.parse(scale.stdout), { kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 3 } });
});

test.serial('--current-replicas is checked against the Scale before the write', async (t) => {
  const wrong = await k.run(['scale', 'machineset/win', '--current-replicas=2', '--replicas=1', '-n', NS]);
  t.is(wrong.code, 1);
  t.regex(wrong.stderr, /Expected replicas to be 2, was 3/);
  t.is(await replicas(), '3');
  const right = await k.run(['scale', 'machineset/win', '--current-replicas=3', '--replicas=2', '-n', NS]);
  t.is(right.code, 0, right.stderr);
  t.is(await replicas(), '2');
});

test.serial('--resource-version of an older object is refused before any write', async (t) => {
  const rv = (
    await k.run(['get', 'machineset', 'win', '-n', NS, '-o', 'jsonpath={.metadata.resourceVersion}'])
  ).stdout;
  await k.run(['annotate', 'machineset', 'win', '-n', NS, 'touched=yes']);
  const stale = await k.run([
    'scale',
    'machineset/win',
    `--resource-version=${rv}`,
    '--replicas=5',
    '-n',
    NS,
  ]);
  t.not(stale.code, 0);
  t.regex(stale.stderr, /Expected resource version to be \d+, was \d+/);
  t.is(await replicas(), '2');
});

test.serial('scaling Machines (no scale subresource) is refused', async (t) => {
  const machine = `apiVersion: machine.openshift.io/v1beta1
kind: Machine
metadata: {name: m1, namespace: ${NS}}
spec: {providerSpec: {value: {apiVersion: sim/v1, kind: SimMachineProviderSpec}}}
`;
  t.is((await k.run(['apply', '-f', '-'], machine)).code, 0);
  const r = await k.run(['scale', 'machine', 'm1', '--replicas=2', '-n', NS]);
  t.not(r.code, 0);
  t.regex(r.stderr, /NotFound/);
  t.is(await replicas(), '2');
});
