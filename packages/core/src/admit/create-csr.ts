import '../di.js';
import { webcrypto } from 'node:crypto';
import {
  Pkcs10CertificateRequestGenerator,
  SubjectAlternativeNameExtension,
  type JsonGeneralName,
} from '@peculiar/x509';

export interface CsrSubject {
  readonly commonName: string;
  readonly organizations?: readonly string[];
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
  readonly emails?: readonly string[];
}

export interface CreatedCsr {
  /** PEM text of the CERTIFICATE REQUEST. */
  readonly pem: string;
  /** PKCS#8 PEM of the private key (ECDSA P-256), for the client that will use the certificate. */
  readonly privateKeyPem: string;
}

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

function escapeRdn(value: string): string {
  return value.replace(/([,+"\\<>;=])/g, '\\$1');
}

/**
 * Creates a real PKCS#10 request as a kubelet does (ECDSA P-256, SHA-256). Used by the simulated kubelet
 * and by tests that need honest and hostile requests.
 */
export async function createCsr(subject: CsrSubject): Promise<CreatedCsr> {
  const keys = await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify']);
  const name = [
    ...(subject.organizations ?? []).map((o) => `O=${escapeRdn(o)}`),
    `CN=${escapeRdn(subject.commonName)}`,
  ].join(', ');
  const sans: JsonGeneralName[] = [
    ...(subject.dnsNames ?? []).map((value): JsonGeneralName => ({ type: 'dns', value })),
    ...(subject.ipAddresses ?? []).map((value): JsonGeneralName => ({ type: 'ip', value })),
    ...(subject.emails ?? []).map((value): JsonGeneralName => ({ type: 'email', value })),
  ];
  const csr = await Pkcs10CertificateRequestGenerator.create({
    name,
    keys,
    signingAlgorithm: ALG,
    extensions: sans.length > 0 ? [new SubjectAlternativeNameExtension(sans)] : [],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const body = pkcs8
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return {
    pem: csr.toString('pem'),
    privateKeyPem: `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----\n`,
  };
}
