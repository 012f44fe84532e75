import { setTimeout as sleep } from 'node:timers/promises';
import { createCsr } from '../../apiserver/x509.js';
import type { KubeClient } from './kube-client.js';

export interface IssuedCert {
  readonly csrName: string;
  readonly certPem: string;
  readonly keyPem: string;
}

export interface CsrRequest {
  readonly signerName: string;
  readonly usages: readonly string[];
  readonly commonName: string;
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
  /** The CSR name prefix (the API server appends a random suffix). */
  readonly generateName: string;
}

type Csr = {
  metadata: { name: string; resourceVersion?: string };
  status?: { certificate?: string; conditions?: { type: string; reason?: string; message?: string }[] };
};

/**
 * Creates a `certificates.k8s.io/v1` CSR with a fresh ECDSA P-256 key and a real PKCS#10 request
 * (O=system:nodes), as the kubelet's certificate manager does. `onCreated` gets the CSR name.
 * ECDSA keys: the kubelet adds `key encipherment` only for RSA keys, so it is not asked for here.
 */
export async function submitCsr(
  client: KubeClient,
  r: CsrRequest,
): Promise<{ name: string; keyPem: string }> {
  const { csrPem, keyPem } = await createCsr({
    commonName: r.commonName,
    organizations: ['system:nodes'],
    ...(r.dnsNames ? { dnsNames: r.dnsNames } : {}),
    ...(r.ipAddresses ? { ipAddresses: r.ipAddresses } : {}),
  });
  const created = await client.call<Csr>('POST', '/apis/certificates.k8s.io/v1/certificatesigningrequests', {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { generateName: r.generateName },
    spec: {
      request: Buffer.from(csrPem, 'utf8').toString('base64'),
      signerName: r.signerName,
      usages: r.usages,
    },
  });
  return { name: created.metadata.name, keyPem };
}

const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';

/** The issued certificate (PEM) of `csr`, undefined while it has none; an error once Denied or Failed. */
function issued(name: string, csr: Csr): string | undefined {
  const bad = csr.status?.conditions?.find((c) => c.type === 'Denied' || c.type === 'Failed');
  if (bad)
    throw new Error(
      `certificate request ${name} ${bad.type.toLowerCase()}: ${bad.reason ?? ''} ${bad.message ?? ''}`.trim(),
    );
  const cert = csr.status?.certificate;
  return cert !== undefined && cert !== '' ? Buffer.from(cert, 'base64').toString('utf8') : undefined;
}

/** Watches the CSR from `resourceVersion` until the watch ends: the certificate, or undefined. */
async function watchCertificate(
  client: KubeClient,
  name: string,
  resourceVersion: string,
): Promise<string | undefined> {
  const query = new URLSearchParams({
    watch: 'true',
    fieldSelector: `metadata.name=${name}`,
    resourceVersion,
    timeoutSeconds: '300',
  });
  let cert: string | undefined;
  await client.watch(
    `${CSRS}?${query.toString()}`,
    (e) => {
      if (e.type === 'DELETED') throw new Error(`certificate request ${name} was deleted`);
      // ERROR (410 Gone: the version is too old): end this watch; the caller reads and watches again.
      if (e.type === 'ERROR') return true;
      if (e.type === 'BOOKMARK') return false;
      cert = issued(name, e.object as Csr);
      return cert !== undefined;
    },
    330_000,
  );
  return cert;
}

const isVerdict = (e: unknown): boolean => e instanceof Error && e.message.startsWith('certificate request');

/**
 * Waits for the signer to issue the CSR's certificate as client-go's `csr.WaitForCertificate` does, which
 * the kubelet's TLS bootstrap and certificate manager use: a read, then a watch of that one CSR (field
 * selector `metadata.name`) from the version read, so the certificate is seen as soon as the signer
 * writes it, not at the next poll. A Denied or Failed condition, or a deleted CSR, is an error, and so is
 * a failed read; a watch that breaks is opened again after `retryMs`. Aborts with the client's signal.
 */
export async function waitForCertificate(
  client: KubeClient,
  name: string,
  retryMs: number,
  signal: AbortSignal,
): Promise<string> {
  for (;;) {
    const csr = await client.call<Csr>('GET', `${CSRS}/${name}`);
    const cert =
      issued(name, csr) ??
      (await watchCertificate(client, name, csr.metadata.resourceVersion ?? '').catch(async (e: unknown) => {
        if (isVerdict(e) || signal.aborted) throw e;
        await sleep(retryMs, undefined, { signal, ref: false });
        return undefined;
      }));
    if (cert !== undefined) return cert;
  }
}
