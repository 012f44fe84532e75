import test, { type ExecutionContext } from 'ava';
import * as k8s from '@kubernetes/client-node';
import { kubeletConfiguration } from '@wmco/core';
import { ClusterCa } from '../../apiserver/pki.js';
import { startSimCluster, type SimCluster } from '../../cluster/sim-cluster.js';
import { FREE_HOST_COSTS } from '../host-costs.js';
import { SimulatedWindowsHost } from '../simulated-windows-host.js';
import { generateEd25519KeyPair } from '../ssh-auth.js';
import { nextLoopbackAddress } from '../windows-host-fixture.js';
import type { WindowsModel } from '../windows-model.js';
import { readKubeconfig } from './kubeconfig-file.js';
import { kubeletStatus } from './kubelet-status.js';
import {
  approve,
  fastKubelet,
  newModel,
  operatorBootstrapKubeconfig,
  operatorKubeletCommand,
  prepareHost,
  waitFor,
} from './kubelet.test-helper.js';

let c: SimCluster;
let kc: k8s.KubeConfig;
let core: k8s.CoreV1Api;
let certs: k8s.CertificatesV1Api;
test.before(async () => {
  c = await startSimCluster({ rbac: true, nodeGracePeriodSeconds: 1, nodeLifecycleIntervalMs: 100 });
  kc = new k8s.KubeConfig();
  kc.loadFromString(c.server.kubeconfig(c.admin));
  core = kc.makeApiClient(k8s.CoreV1Api);
  certs = kc.makeApiClient(k8s.CertificatesV1Api);
});
test.after.always(async () => {
  await c.stop();
});

const csrsOf = async (user: string, signer: string): Promise<k8s.V1CertificateSigningRequest[]> =>
  (await certs.listCertificateSigningRequest()).items.filter(
    (r) => r.spec.username === user && r.spec.signerName === signer,
  );
const ready = (n: k8s.V1Node): string | undefined =>
  n.status?.conditions?.find((x) => x.type === 'Ready')?.status;

// OpenShift's node-bootstrapper-token is a service-account token (reference §1.9).
const bootstrapUser = (): string =>
  'system:serviceaccount:openshift-machine-config-operator:node-bootstrapper';
const CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client-kubelet';

async function startedHost(t: ExecutionContext): Promise<WindowsModel> {
  const key = generateEd25519KeyPair();
  const sim = await SimulatedWindowsHost.start({
    address: nextLoopbackAddress(),
    authorizedKey: key.public,
    costs: FREE_HOST_COSTS,
    hostname: 'WIN-Node-1',
    behaviours: fastKubelet(),
  });
  t.teardown(() => sim.stop());
  const command = operatorKubeletCommand(c.server.url, '10.0.0.21');
  t.regex(command, /^C:\\k\\kube-log-runner\.exe -log-file=\S+ C:\\k\\kubelet\.exe --config=/);
  const boot = await operatorBootstrapKubeconfig(kc, c.server.url);
  prepareHost(sim.model, c, { bootstrapKubeconfig: boot }, command);
  await sim.model.scm.start('kubelet');
  return sim.model;
}

async function approveClientCsr(t: ExecutionContext, m: WindowsModel): Promise<void> {
  const [csr] = await waitFor('client CSR', async () => {
    const l = await csrsOf(bootstrapUser(), CLIENT_SIGNER);
    return l.length > 0 ? l : undefined;
  });
  if (!csr) throw new Error('no client CSR');
  t.deepEqual(csr.spec.usages, ['digital signature', 'client auth']);
  t.deepEqual([...(csr.spec.groups ?? [])].sort(), [
    'system:authenticated',
    'system:serviceaccounts',
    'system:serviceaccounts:openshift-machine-config-operator',
  ]);
  t.is(kubeletStatus(m)?.phase, 'waiting-for-approval');
  await t.throwsAsync(core.readNode({ name: 'win-node-1' }), undefined, 'no Node before approval');
  await approve(kc, csr.metadata?.name ?? '');
}

function checkNode(t: ExecutionContext, node: k8s.V1Node): void {
  t.like(node.metadata?.labels, {
    'kubernetes.io/os': 'windows',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': 'win-node-1',
    'node.kubernetes.io/windows-build': '10.0.20348',
    'node.openshift.io/os_id': 'Windows',
  });
  // The kubelet's registration taints; the node lifecycle controller's (node.kubernetes.io/unreachable,
  // added when a heartbeat is late for this cluster's 1 s grace, as on a busy machine) are not its.
  t.deepEqual(
    node.spec?.taints?.filter((x) => !x.key.startsWith('node.kubernetes.io/')).map((x) => ({ ...x })),
    [{ key: 'os', value: 'Windows', effect: 'NoSchedule' }],
  );
  t.deepEqual(
    node.status?.addresses?.map((x) => ({ ...x })),
    [
      { type: 'InternalIP', address: '10.0.0.21' },
      { type: 'Hostname', address: 'win-node-1' },
    ],
  );
  const info = node.status?.nodeInfo;
  t.like(info, { operatingSystem: 'windows', osImage: 'Windows Server 2022 Datacenter' });
  t.regex(info?.kubeletVersion ?? '', /^v1\.36\.\d+$/);
}

async function checkCredentialsAndLease(t: ExecutionContext, m: WindowsModel): Promise<void> {
  const kubeconfig = readKubeconfig(m.files, 'C:\\k\\kubeconfig');
  t.truthy(kubeconfig.certPem);
  t.is(kubeconfig.token, undefined, 'the written kubeconfig uses the client certificate');
  t.true(m.files.isFile('c:\\var\\lib\\kubelet\\pki\\kubelet-client-current.pem'));
  const leases = kc.makeApiClient(k8s.CoordinationV1Api);
  // The Node is created with its status (Ready at once); the Lease follows with the first heartbeat.
  const lease = await waitFor('the Lease', () =>
    leases.readNamespacedLease({ name: 'win-node-1', namespace: 'kube-node-lease' }).catch(() => undefined),
  );
  t.is(lease.spec?.holderIdentity, 'win-node-1');
  await waitFor('two heartbeats', () => ((kubeletStatus(m)?.heartbeats ?? 0) >= 2 ? true : undefined));
}

async function checkServingCsr(t: ExecutionContext, m: WindowsModel): Promise<void> {
  const [serving] = await waitFor('serving CSR', async () => {
    const l = await csrsOf('system:node:win-node-1', 'kubernetes.io/kubelet-serving');
    return l.length > 0 ? l : undefined;
  });
  if (!serving) throw new Error('no serving CSR');
  t.deepEqual(serving.spec.usages, ['digital signature', 'server auth']);
  t.true(serving.spec.groups?.includes('system:nodes'));
  await approve(kc, serving.metadata?.name ?? '');
  await waitFor('serving cert', () => (kubeletStatus(m)?.servingCertIssued === true ? true : undefined));
  t.true(m.files.isFile('C:\\var\\lib\\kubelet\\pki\\kubelet-server-current.pem'));
}

const nodeReady = async (): Promise<string | undefined> => ready(await core.readNode({ name: 'win-node-1' }));

async function stopAndRestart(t: ExecutionContext, m: WindowsModel): Promise<void> {
  await m.scm.stop('kubelet');
  t.is(kubeletStatus(m)?.phase, 'stopped');
  await waitFor('NotReady', async () => ((await nodeReady()) === 'Unknown' ? true : undefined));
  await m.scm.start('kubelet');
  const again = kubeletStatus(m);
  t.true(again?.reusedClientCert, 'the restart reuses the client certificate');
  await waitFor('Ready again', async () =>
    (await nodeReady()) === 'True' && again?.phase === 'running' ? true : undefined,
  );
  t.is(again?.clientCsrs.length, 1, 'no second client CSR');
  t.is((await csrsOf(bootstrapUser(), CLIENT_SIGNER)).length, 1);
  await m.scm.stop('kubelet');
}

test.serial('TLS bootstrap, registration, heartbeats, serving CSR, stop and restart', async (t) => {
  const m = await startedHost(t);
  t.is(m.scm.get('kubelet')?.state, 'running', 'the service runs while it waits for approval');
  t.is(kubeletStatus(m)?.nodeName, 'win-node-1');
  await approveClientCsr(t, m);
  const node = await waitFor('Ready node', async () => {
    const n = await core.readNode({ name: 'win-node-1' }).catch(() => undefined);
    return n && ready(n) === 'True' ? n : undefined;
  });
  checkNode(t, node);
  await checkCredentialsAndLease(t, m);
  await checkServingCsr(t, m);
  await stopAndRestart(t, m);
});

test('a bad bootstrap token keeps the node out: running service, Unauthorized lastError', async (t) => {
  const m = newModel('win-badtoken');
  const good = await operatorBootstrapKubeconfig(kc, c.server.url);
  prepareHost(
    m,
    c,
    { bootstrapKubeconfig: good.replace(c.nodeBootstrapperToken, 'not-a-valid-service-account-token') },
    operatorKubeletCommand(c.server.url, '10.0.0.31'),
  );
  await m.scm.start('kubelet');
  t.teardown(() => m.scm.stop('kubelet'));
  const err = await waitFor('an error', () => kubeletStatus(m)?.lastError);
  t.regex(err, /401/);
  t.is(kubeletStatus(m)?.phase, 'bootstrapping');
  t.is(kubeletStatus(m)?.clientCsrs.length, 0);
});

test('a wrong CA in the bootstrap kubeconfig fails TLS: no CSR, certificate error', async (t) => {
  const m = newModel('win-badca');
  const other = await ClusterCa.create();
  const good = await operatorBootstrapKubeconfig(kc, c.server.url);
  const wrong = good.replace(
    Buffer.from(c.server.caPem).toString('base64'),
    Buffer.from(other.certPem).toString('base64'),
  );
  t.not(wrong, good);
  prepareHost(m, c, { bootstrapKubeconfig: wrong }, operatorKubeletCommand(c.server.url, '10.0.0.32'));
  await m.scm.start('kubelet');
  t.teardown(() => m.scm.stop('kubelet'));
  const err = await waitFor('an error', () => kubeletStatus(m)?.lastError);
  t.regex(err, /certificate|self.signed|verify/i);
  t.is(kubeletStatus(m)?.clientCsrs.length, 0);
});

test('a wrong server URL fails the bootstrap with a connection error', async (t) => {
  const m = newModel('win-badurl');
  const good = await operatorBootstrapKubeconfig(kc, c.server.url);
  prepareHost(
    m,
    c,
    { bootstrapKubeconfig: good.replace(c.server.url, 'https://127.0.0.1:1') },
    operatorKubeletCommand(c.server.url, '10.0.0.33'),
  );
  await m.scm.start('kubelet');
  t.teardown(() => m.scm.stop('kubelet'));
  t.regex(await waitFor('an error', () => kubeletStatus(m)?.lastError), /127\.0\.0\.1:1.*ECONNREFUSED/);
});

test('missing or malformed files fail the service start with a clear reason', async (t) => {
  const cmd = operatorKubeletCommand(c.server.url, '10.0.0.34');
  const boot = await operatorBootstrapKubeconfig(kc, c.server.url);
  const cases: [string, (m: ReturnType<typeof newModel>) => void, RegExp][] = [
    [
      'missing config',
      (m) => m.files.remove('C:\\k\\kubelet.conf'),
      /kubelet config file not found: C:\\k\\kubelet\.conf/,
    ],
    [
      'malformed config',
      (m) => m.files.write('C:\\k\\kubelet.conf', Buffer.from('{"kind": 3')),
      /C:\\k\\kubelet\.conf: not YAML\/JSON/,
    ],
    [
      'missing client CA',
      (m) => m.files.remove('C:\\k\\kubelet-ca.crt'),
      /client CA file C:\\k\\kubelet-ca\.crt/,
    ],
    [
      'missing bootstrap kubeconfig',
      (m) => m.files.remove('C:\\k\\bootstrap-kubeconfig'),
      /kubeconfig not found: C:\\k\\bootstrap-kubeconfig/,
    ],
    ['missing binary', (m) => m.files.remove('C:\\k\\kubelet.exe'), /binary not found: C:\\k\\kubelet\.exe/],
  ];
  for (const [what, breakIt, reason] of cases) {
    const m = newModel(`win-${what.replaceAll(' ', '-')}`);
    prepareHost(m, c, { bootstrapKubeconfig: boot }, cmd);
    breakIt(m);
    const e = await t.throwsAsync(m.scm.start('kubelet'));
    t.regex(e.message, reason, what);
    t.is(m.scm.get('kubelet')?.state, 'stopped', what);
    t.regex(kubeletStatus(m)?.lastError ?? '', reason, what);
  }
  const m = newModel('win-unsubstituted');
  prepareHost(
    m,
    c,
    { bootstrapKubeconfig: boot, kubeletConf: kubeletConfiguration('172.30.0.0/16') },
    operatorKubeletCommand(c.server.url, 'NODE_IP'),
  );
  t.regex((await t.throwsAsync(m.scm.start('kubelet'))).message, /invalid --node-ip "NODE_IP"/);
});
