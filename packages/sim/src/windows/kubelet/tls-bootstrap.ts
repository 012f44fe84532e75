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
  metadata: { name: string };
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

/**
 * Polls the CSR until the signer issued its certificate; a Denied or Failed condition is an error.
 * Aborts with the client's signal.
 */
export async function waitForCertificate(
  client: KubeClient,
  name: string,
  pollMs: number,
  signal: AbortSignal,
): Promise<string> {
  for (;;) {
    const csr = await client.call<Csr>(
      'GET',
      `/apis/certificates.k8s.io/v1/certificatesigningrequests/${name}`,
    );
    const bad = csr.status?.conditions?.find((c) => c.type === 'Denied' || c.type === 'Failed');
    if (bad)
      throw new Error(
        `certificate request ${name} ${bad.type.toLowerCase()}: ${bad.reason ?? ''} ${bad.message ?? ''}`.trim(),
      );
    const cert = csr.status?.certificate;
    if (cert !== undefined && cert !== '') return Buffer.from(cert, 'base64').toString('utf8');
    await sleep(pollMs, undefined, { signal, ref: false });
  }
}
