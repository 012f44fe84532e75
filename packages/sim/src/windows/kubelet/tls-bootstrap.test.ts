import test from 'ava';
import * as k8s from '@kubernetes/client-node';
import { startSimCluster, type SimCluster } from '../../cluster/sim-cluster.js';
import { KubeClient } from './kube-client.js';
import { readKubeconfig } from './kubeconfig-file.js';
import { approve, newModel, operatorBootstrapKubeconfig, waitFor } from './kubelet.test-helper.js';
import { submitCsr, waitForCertificate } from './tls-bootstrap.js';

let c: SimCluster;
let kc: k8s.KubeConfig;
test.before(async () => {
  c = await startSimCluster({ rbac: true });
  kc = new k8s.KubeConfig();
  kc.loadFromString(c.server.kubeconfig(c.admin));
});
test.after.always(async () => {
  await c.stop();
});

const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
/** Longer than any test here: a wait that polls at this interval never sees its certificate in time. */
const NEVER_MS = 600_000;

/** A kubelet's API client with the bootstrap credentials (the node-bootstrapper token). */
async function bootstrapClient(signal: AbortSignal): Promise<KubeClient> {
  const m = newModel('WIN-TLS');
  m.files.mkdirp('C:\\k');
  m.files.write(
    'C:\\k\\bootstrap-kubeconfig',
    Buffer.from(await operatorBootstrapKubeconfig(kc, c.server.url)),
  );
  return new KubeClient(readKubeconfig(m.files, 'C:\\k\\bootstrap-kubeconfig'), signal);
}

/** What the kubelet's client (not the test's approvals) did about one CSR: reads of it, watches of it. */
function requestsAbout(since: number, name: string): { reads: number; watches: number } {
  const log = c.server.requests.since(since).filter((r) => r.user !== c.admin.user.name);
  return {
    reads: log.filter((r) => !r.watch && r.method === 'GET' && r.path === `${CSRS}/${name}`).length,
    watches: log.filter((r) => r.watch && r.path === CSRS).length,
  };
}

/** Waits until the kubelet has opened its `n`-th watch of the CSRs since `since`. */
function watchOpened(since: number, name: string, n: number, what: string): Promise<true> {
  return waitFor(what, () => (requestsAbout(since, name).watches === n ? true : undefined));
}

async function clientCsr(client: KubeClient): Promise<string> {
  const csr = await submitCsr(client, {
    signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
    usages: ['digital signature', 'client auth'],
    commonName: 'system:node:win-tls',
    generateName: 'csr-',
  });
  return csr.name;
}

test.serial(
  'the certificate arrives on the watch of that one CSR: one read and one watch, and no poll interval passes',
  async (t) => {
    const stop = new AbortController();
    t.teardown(() => stop.abort());
    const client = await bootstrapClient(stop.signal);
    const name = await clientCsr(client);
    const since = c.server.requests.total;
    const issued = waitForCertificate(client, name, NEVER_MS, stop.signal);
    await watchOpened(since, name, 1, 'the watch of the CSR');
    await approve(kc, name);
    const pem = await issued;
    t.regex(pem, /^-----BEGIN CERTIFICATE-----/);
    t.deepEqual(requestsAbout(since, name), { reads: 1, watches: 1 });
  },
);

test.serial('a watch the server ends is opened again after a fresh read', async (t) => {
  const stop = new AbortController();
  t.teardown(() => stop.abort());
  const client = await bootstrapClient(stop.signal);
  const name = await clientCsr(client);
  const since = c.server.requests.total;
  const issued = waitForCertificate(client, name, 20, stop.signal);
  await watchOpened(since, name, 1, 'the first watch');
  t.true(c.server.watches.dropAll() >= 1);
  await watchOpened(since, name, 2, 'the second watch');
  await approve(kc, name);
  t.regex(await issued, /^-----BEGIN CERTIFICATE-----/);
  t.deepEqual(requestsAbout(since, name), { reads: 2, watches: 2 });
});

test.serial('a denied CSR ends the wait with its verdict, from the watch', async (t) => {
  const stop = new AbortController();
  t.teardown(() => stop.abort());
  const client = await bootstrapClient(stop.signal);
  const name = await clientCsr(client);
  const since = c.server.requests.total;
  const verdict = waitForCertificate(client, name, NEVER_MS, stop.signal);
  await watchOpened(since, name, 1, 'the watch of the CSR');
  await approve(kc, name, 'Denied');
  const err = await t.throwsAsync(verdict);
  t.regex(err.message, new RegExp(`certificate request ${name} denied`));
});
