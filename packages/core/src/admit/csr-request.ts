import '../di.js';
import { Pkcs10CertificateRequest, SubjectAlternativeNameExtension } from '@peculiar/x509';

/** What a PKCS#10 request asks for: subject and subject alternative names. */
export interface ParsedCsr {
  readonly commonName: string;
  readonly organizations: readonly string[];
  readonly dnsNames: readonly string[];
  readonly ipAddresses: readonly string[];
  /** Email, URI and other SAN kinds: never acceptable for a kubelet certificate. */
  readonly otherNames: readonly string[];
  /** The request's signature checks out against its own public key. */
  readonly signatureValid: boolean;
}

const SAN_OID = '2.5.29.17';
const PEM =
  /^-----BEGIN CERTIFICATE REQUEST-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE REQUEST-----\s*$/;

/** Error for a request that cannot be parsed; its message says why (never the request itself). */
export class CsrParseError extends Error {
  constructor(why: string) {
    super(`cannot parse certificate request: ${why}`);
    this.name = 'CsrParseError';
  }
}

/**
 * Parses `spec.request` (base64 of a PEM `CERTIFICATE REQUEST` block, as the API stores it, or the PEM
 * text itself). Throws CsrParseError for anything that is not exactly one well-formed request.
 */
export async function parseCsr(request: string | Uint8Array): Promise<ParsedCsr> {
  const pem = typeof request === 'string' ? request : Buffer.from(request).toString('utf8');
  const text = pem.includes('-----BEGIN') ? pem : Buffer.from(pem, 'base64').toString('utf8');
  if (text.trim() === '') throw new CsrParseError('the request is empty');
  if (!PEM.test(text.trim() + '\n'))
    throw new CsrParseError('expected one PEM block of type CERTIFICATE REQUEST');
  let csr: Pkcs10CertificateRequest;
  try {
    csr = new Pkcs10CertificateRequest(text.trim());
  } catch (err) {
    throw new CsrParseError(err instanceof Error ? err.message : 'malformed DER');
  }
  const names = [...csr.getExtensions(SAN_OID)].flatMap((e) => [
    ...new SubjectAlternativeNameExtension(e.rawData).names.items,
  ]);
  const commonNames = csr.subjectName.getField('CN');
  if (commonNames.length !== 1)
    throw new CsrParseError(`expected one common name, found ${commonNames.length}`);
  return {
    commonName: commonNames[0] ?? '',
    organizations: [...csr.subjectName.getField('O')],
    dnsNames: names.filter((n) => n.type === 'dns').map((n) => n.value),
    ipAddresses: names.filter((n) => n.type === 'ip').map((n) => n.value),
    otherNames: names.filter((n) => n.type !== 'dns' && n.type !== 'ip').map((n) => `${n.type}:${n.value}`),
    signatureValid: await csr.verify().catch(() => false),
  };
}
