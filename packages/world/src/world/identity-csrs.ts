import { CertificatesV1Api, KubeConfig, type V1CertificateSigningRequest } from '@kubernetes/client-node';
import { createCsr, parseCsr, type CsrSubject } from '@wmco/core';
import type { SimWorld } from './sim-world.js';
import { apis } from './world-fixture.js';

export const CLIENT = 'kubernetes.io/kube-apiserver-client-kubelet';
export const SERVING = 'kubernetes.io/kubelet-serving';
export const NODE_BOOTSTRAPPER = 'system:serviceaccount:openshift-machine-config-operator:node-bootstrapper';

/** The CSR API as someone holding `token` (the node-bootstrapper token, a kubeadm bootstrap token...). */
export function csrApiWithToken(world: SimWorld, token: string): CertificatesV1Api {
  const admin = new KubeConfig();
  admin.loadFromFile(world.adminKubeconfig);
  const cluster = admin.getCurrentCluster();
  if (!cluster) throw new Error('no cluster in the admin kubeconfig');
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [cluster],
    users: [{ name: 'u', token }],
    contexts: [{ name: 'u', cluster: cluster.name, user: 'u' }],
    currentContext: 'u',
  });
  return kc.makeApiClient(CertificatesV1Api);
}

/** The CSR API as a node itself (a client certificate for system:node:<name> in system:nodes). */
export async function csrApiAsNode(world: SimWorld, nodeName: string): Promise<CertificatesV1Api> {
  const kc = new KubeConfig();
  kc.loadFromString(
    await world.cluster.server.clientCertKubeconfig(`system:node:${nodeName}`, ['system:nodes']),
  );
  return kc.makeApiClient(CertificatesV1Api);
}

export async function submitCsr(
  api: CertificatesV1Api,
  name: string,
  subject: CsrSubject,
  signerName: string,
): Promise<void> {
  const { pem } = await createCsr(subject);
  const usages =
    signerName === CLIENT ? ['digital signature', 'client auth'] : ['digital signature', 'server auth'];
  await api.createCertificateSigningRequest({
    body: {
      metadata: { name },
      spec: { request: Buffer.from(pem).toString('base64'), signerName, usages },
    },
  });
}

export function isApproved(c: V1CertificateSigningRequest): boolean {
  return (c.status?.conditions ?? []).some((x) => x.type === 'Approved');
}

export async function allCsrs(world: SimWorld): Promise<V1CertificateSigningRequest[]> {
  return (await apis(world).certificates.listCertificateSigningRequest()).items;
}

/** Approved kubelet client CSRs whose request names `nodeName` (decoded from the PKCS#10 subject). */
export async function approvedClientCsrsFor(
  world: SimWorld,
  nodeName: string,
): Promise<V1CertificateSigningRequest[]> {
  const out: V1CertificateSigningRequest[] = [];
  for (const c of await allCsrs(world)) {
    if (c.spec.signerName !== CLIENT || !isApproved(c)) continue;
    const parsed = await parseCsr(c.spec.request);
    if (parsed.commonName === `system:node:${nodeName}`) out.push(c);
  }
  return out;
}
