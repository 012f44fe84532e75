import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

// One place that wires @peculiar/x509 to Node's WebCrypto; everything else imports from here.
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

export type KeyPair = webcrypto.CryptoKeyPair;
export type Key = webcrypto.CryptoKey;

export { x509 };

export const EC_ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

export async function generateKeys(): Promise<KeyPair> {
  return await webcrypto.subtle.generateKey(EC_ALG, true, ['sign', 'verify']);
}

export async function privateKeyPem(key: Key): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

/** Escapes a value for an RFC 4514 distinguished name. */
function dnValue(v: string): string {
  return v.replace(/([,+"\\<>;=])/g, '\\$1');
}

/** `CN=<cn>,O=<g1>,O=<g2>` in the form @peculiar/x509 parses. */
export function distinguishedName(commonName: string, organizations: readonly string[] = []): string {
  return [`CN=${dnValue(commonName)}`, ...organizations.map((o) => `O=${dnValue(o)}`)].join(', ');
}

export interface CsrInput {
  readonly commonName: string;
  readonly organizations?: readonly string[];
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
}

/** A PKCS#10 request in PEM, as a kubelet makes one, plus the PEM of its private key. */
export async function createCsr(input: CsrInput): Promise<{ csrPem: string; keyPem: string }> {
  const keys = await generateKeys();
  const sans = [
    ...(input.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(input.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: distinguishedName(input.commonName, input.organizations),
    keys: keys as never,
    signingAlgorithm: EC_ALG,
    extensions: sans.length > 0 ? [new x509.SubjectAlternativeNameExtension(sans)] : [],
  });
  return { csrPem: csr.toString('pem'), keyPem: await privateKeyPem(keys.privateKey) };
}
