import test from 'ava';
import * as k8s from '@kubernetes/client-node';
import { kubeletConfiguration } from '@wmco/core';
import { x509 } from '../../apiserver/x509.js';
import { startSimCluster, type SimCluster } from '../../cluster/sim-cluster.js';
import { kubeletStatus } from './kubelet-status.js';
import {
  approve,
  newModel,
  operatorBootstrapKubeconfig,
  operatorKubeletCommand,
  prepareHost,
  waitFor,
} from './kubelet.test-helper.js';

let c: SimCluster;
let kc: k8s.KubeConfig;
let certs: k8s.CertificatesV1Api;
test.before(async () => {
  c = await startSimCluster({ rbac: true });
  kc = new k8s.KubeConfig();
  kc.loadFromString(c.server.kubeconfig(c.admin));
  certs = kc.makeApiClient(k8s.CertificatesV1Api);
});
test.after.always(async () => {
  await c.stop();
});

const csrFor = async (
  cn: string,
  signer: string,
  not: readonly string[] = [],
): Promise<k8s.V1CertificateSigningRequest | undefined> =>
  (await certs.listCertificateSigningRequest()).items.find((r) => {
    const req = new x509.Pkcs10CertificateRequest(Buffer.from(r.spec.request, 'base64').toString());
    return (
      r.spec.signerName === signer &&
      req.subject.includes(`CN=${cn}`) &&
      !not.includes(r.metadata?.name ?? '')
    );
  });
const parsed = (r: k8s.V1CertificateSigningRequest): x509.Pkcs10CertificateRequest =>
  new x509.Pkcs10CertificateRequest(Buffer.from(r.spec.request, 'base64').toString());
const sans = (r: k8s.V1CertificateSigningRequest): string[] =>
  [...parsed(r).extensions]
    .filter((e) => e instanceof x509.SubjectAlternativeNameExtension)
    .flatMap((e) => e.names.items.map((n) => `${n.type}:${n.value}`));

test.serial('the client CSR is a real ECDSA PKCS#10 request; a denied one is asked again', async (t) => {
  const m = newModel('WIN-CSR', '10.0.0.41');
  const boot = await operatorBootstrapKubeconfig(kc, c.server.url);
  prepareHost(m, c, { bootstrapKubeconfig: boot }, operatorKubeletCommand(c.server.url, '10.0.0.41'));
  await m.scm.start('kubelet');
  t.teardown(() => m.scm.stop('kubelet'));
  const first = await waitFor('client CSR', () =>
    csrFor('system:node:win-csr', 'kubernetes.io/kube-apiserver-client-kubelet'),
  );
  const req = parsed(first);
  t.is(req.subject, 'CN=system:node:win-csr, O=system:nodes');
  t.is((req.publicKey.algorithm as { name?: unknown }).name, 'ECDSA');
  t.true(await req.verify(), 'self-signed with its key');
  t.deepEqual(sans(first), [], 'no SANs in a client CSR');
  await approve(kc, first.metadata?.name ?? '', 'Denied');
  const err = await waitFor('denied error', () =>
    kubeletStatus(m)?.lastError?.includes('denied') ? kubeletStatus(m)?.lastError : undefined,
  );
  t.regex(err, /certificate request csr-\w+ denied/);
  const second = await waitFor('second client CSR', () =>
    csrFor('system:node:win-csr', 'kubernetes.io/kube-apiserver-client-kubelet', [
      first.metadata?.name ?? '',
    ]),
  );
  await approve(kc, second.metadata?.name ?? '');
  const serving = await waitFor('serving CSR', () =>
    csrFor('system:node:win-csr', 'kubernetes.io/kubelet-serving'),
  );
  t.deepEqual(sans(serving).sort(), ['dns:win-csr', 'ip:10.0.0.41']);
  t.is(serving.spec.username, 'system:node:win-csr', 'requested with the client certificate');
  t.deepEqual(kubeletStatus(m)?.clientCsrs, [first.metadata?.name, second.metadata?.name]);
  t.is(kubeletStatus(m)?.phase, 'running', 'Ready does not wait for the serving certificate');
  t.false(kubeletStatus(m)?.servingCertIssued);
});

test.serial('--hostname-override names the node; registerNode=false registers nothing', async (t) => {
  const m = newModel('WIN-IGNORED', '10.0.0.42');
  const conf = JSON.parse(kubeletConfiguration('172.30.0.0/16')) as Record<string, unknown>;
  const command = `${operatorKubeletCommand(c.server.url, '10.0.0.42')} --hostname-override=Custom-Name`;
  prepareHost(
    m,
    c,
    {
      bootstrapKubeconfig: await operatorBootstrapKubeconfig(kc, c.server.url),
      kubeletConf: JSON.stringify({ ...conf, registerNode: false }),
    },
    command,
  );
  await m.scm.start('kubelet');
  t.teardown(() => m.scm.stop('kubelet'));
  t.is(kubeletStatus(m)?.nodeName, 'custom-name');
  const csr = await waitFor('client CSR', () =>
    csrFor('system:node:custom-name', 'kubernetes.io/kube-apiserver-client-kubelet'),
  );
  await approve(kc, csr.metadata?.name ?? '');
  await waitFor('running', () => (kubeletStatus(m)?.phase === 'running' ? true : undefined));
  t.true(m.files.isFile('C:\\k\\kubeconfig'));
  const core = kc.makeApiClient(k8s.CoreV1Api);
  await t.throwsAsync(core.readNode({ name: 'custom-name' }));
});

test.serial('the node name is the computer name trimmed and lower-cased, as the kubelet does', async (t) => {
  const m = newModel(' WIN-Trim\t', '10.0.0.43');
  prepareHost(
    m,
    c,
    { bootstrapKubeconfig: await operatorBootstrapKubeconfig(kc, c.server.url) },
    operatorKubeletCommand(c.server.url, '10.0.0.43'),
  );
  await m.scm.start('kubelet');
  t.teardown(() => m.scm.stop('kubelet'));
  t.is(kubeletStatus(m)?.nodeName, 'win-trim');
  await waitFor('client CSR', () =>
    csrFor('system:node:win-trim', 'kubernetes.io/kube-apiserver-client-kubelet'),
  );
});
