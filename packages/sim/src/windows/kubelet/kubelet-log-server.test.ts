import test from 'ava';
import { request } from 'node:https';
import * as k8s from '@kubernetes/client-node';
import { startSimCluster, type SimCluster } from '../../cluster/sim-cluster.js';
import { FREE_HOST_COSTS } from '../host-costs.js';
import { SimulatedWindowsHost } from '../simulated-windows-host.js';
import { generateEd25519KeyPair } from '../ssh-auth.js';
import { nextLoopbackAddress } from '../windows-host-fixture.js';
import type { WindowsModel } from '../windows-model.js';
import { KUBELET_PORT } from './kubelet-log-server.js';
import { kubeletStatus } from './kubelet-status.js';
import {
  approve,
  fastKubelet,
  operatorBootstrapKubeconfig,
  operatorKubeletCommand,
  prepareHost,
  waitFor,
} from './kubelet.test-helper.js';

let c: SimCluster;
let kc: k8s.KubeConfig;
let address: string;
let host: WindowsModel;
let stopHost: (() => Promise<void>) | undefined;
const KUBE_PROXY_LOG = 'I1127 10:00:00.000000    4242 server.go:1] "kube-proxy started on the node"\n';

async function approveCsrOf(user: string, signer: string): Promise<void> {
  const certs = kc.makeApiClient(k8s.CertificatesV1Api);
  const csr = await waitFor(`CSR ${signer}`, async () =>
    (await certs.listCertificateSigningRequest()).items.find(
      (r) => r.spec.signerName === signer && (r.spec.username ?? '').startsWith(user),
    ),
  );
  await approve(kc, csr.metadata?.name ?? '');
}

/** A joined node (client and serving CSRs approved) with a kube-proxy log under C:\var\log. */
test.before(async () => {
  c = await startSimCluster({ rbac: true });
  kc = new k8s.KubeConfig();
  kc.loadFromString(c.server.kubeconfig(c.admin));
  address = nextLoopbackAddress();
  const sim = await SimulatedWindowsHost.start({
    address,
    authorizedKey: generateEd25519KeyPair().public,
    costs: FREE_HOST_COSTS,
    hostname: 'WIN-Logs-1',
    behaviours: fastKubelet(),
  });
  host = sim.model;
  host.files.mkdirp('C:\\var\\log\\kube-proxy');
  host.files.mkdirp('C:\\var\\log\\kubelet');
  host.files.write('C:\\var\\log\\kube-proxy\\kube-proxy.log', Buffer.from(KUBE_PROXY_LOG));
  const boot = await operatorBootstrapKubeconfig(kc, c.server.url);
  prepareHost(host, c, { bootstrapKubeconfig: boot }, operatorKubeletCommand(c.server.url, address));
  await host.scm.start('kubelet');
  await approveCsrOf('system:serviceaccount:', 'kubernetes.io/kube-apiserver-client-kubelet');
  await approveCsrOf('system:node:win-logs-1', 'kubernetes.io/kubelet-serving');
  await waitFor('kubelet serving', () =>
    host.listeners.get('kubelet')?.state === 'serving' ? true : undefined,
  );
  stopHost = (): Promise<void> => sim.stop();
});
test.after.always(async () => {
  await stopHost?.();
  await c?.stop();
});

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly location?: string | undefined;
}

function get(url: string, token?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        ca: c.server.caPem,
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
        checkServerIdentity: () => undefined,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            location: res.headers.location,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const proxy = (path: string): string => `${c.server.url}/api/v1/nodes/win-logs-1/proxy${path}`;

test('the Node publishes the kubelet port', async (t) => {
  const node = await kc.makeApiClient(k8s.CoreV1Api).readNode({ name: 'win-logs-1' });
  t.is(node.status?.daemonEndpoints?.kubeletEndpoint?.Port, KUBELET_PORT);
});

test('an admin reads a node log file through the API server', async (t) => {
  const r = await get(proxy('/logs/kube-proxy/kube-proxy.log'), c.admin.token);
  t.is(r.status, 200);
  t.is(r.body, KUBE_PROXY_LOG);
});

test('the log folder is listed as the kubelet lists it, the kubelet writes its own log', async (t) => {
  const r = await get(proxy('/logs/'), c.admin.token);
  t.is(r.status, 200);
  t.regex(r.body, /<a href="kube-proxy\/">kube-proxy\/<\/a>/);
  const kubelet = await get(proxy('/logs/kubelet/kubelet.log'), c.admin.token);
  t.regex(kubelet.body, /^I\d{4} .*"Starting kubelet: /m);
  const redirect = await get(proxy('/logs/kube-proxy'), c.admin.token);
  t.is(redirect.status, 301);
  t.is(redirect.location, '/api/v1/nodes/win-logs-1/proxy/logs/kube-proxy/');
});

test('a missing file is 404 and a path out of C:\\var\\log is refused', async (t) => {
  t.is((await get(proxy('/logs/nope.log'), c.admin.token)).status, 404);
  // URL parsing resolves `%2e%2e` before it leaves the client; a backslash does not, so the kubelet checks.
  t.is((await get(proxy('/logs/kube-proxy/..%5C..%5Ck%5Ckubeconfig'), c.admin.token)).status, 400);
});

test('nodes/proxy is what RBAC checks', async (t) => {
  const user = c.server.addUser('log-reader', []);
  const denied = await get(proxy('/logs/kube-proxy/kube-proxy.log'), user.token);
  t.is(denied.status, 403);
  t.regex((JSON.parse(denied.body) as { message: string }).message, /cannot get resource "nodes\/proxy"/);
  const rbac = kc.makeApiClient(k8s.RbacAuthorizationV1Api);
  await rbac.createClusterRole({
    body: {
      metadata: { name: 'node-log-reader' },
      rules: [{ apiGroups: [''], resources: ['nodes/proxy'], verbs: ['get'] }],
    },
  });
  await rbac.createClusterRoleBinding({
    body: {
      metadata: { name: 'node-log-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'node-log-reader' },
      subjects: [{ kind: 'User', name: 'log-reader', apiGroup: 'rbac.authorization.k8s.io' }],
    },
  });
  const allowed = await get(proxy('/logs/kube-proxy/kube-proxy.log'), user.token);
  t.is(allowed.status, 200);
  t.is((await get(proxy('/logs/'), undefined)).status, 401);
});

test('the kubelet refuses clients without a cluster certificate', async (t) => {
  const direct = await get(`https://${address}:${KUBELET_PORT}/logs/`);
  t.is(direct.status, 401);
});

test('an unknown node is 404; a node whose kubelet does not answer is an error reaching it', async (t) => {
  const r = await get(`${c.server.url}/api/v1/nodes/nope/proxy/logs/`, c.admin.token);
  t.is(r.status, 404);
  await kc.makeApiClient(k8s.CoreV1Api).createNode({
    body: {
      metadata: { name: 'win-gone' },
      status: {
        addresses: [{ type: 'InternalIP', address: nextLoopbackAddress() }],
        daemonEndpoints: { kubeletEndpoint: { Port: KUBELET_PORT } },
      },
    },
  });
  const gone = await get(`${c.server.url}/api/v1/nodes/win-gone/proxy/logs/`, c.admin.token);
  t.is(gone.status, 500);
  t.regex((JSON.parse(gone.body) as { message: string }).message, /^error trying to reach service: /);
  t.is(kubeletStatus(host)?.phase, 'running');
});
