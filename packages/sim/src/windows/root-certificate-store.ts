import { X509Certificate } from 'node:crypto';

/** The mark the host module puts on the certificates it imports (the certificate's FriendlyName). */
export const MANAGED_CERTIFICATE_NAME = 'OpenShift managed';

interface StoredCertificate {
  readonly subject: string;
  readonly der: Buffer;
  friendlyName: string;
}

/**
 * `Cert:\LocalMachine\Root` of one host: certificates by thumbprint (SHA-1 of the DER, upper-case hex),
 * each with its FriendlyName. As WmcoHost.psm1 uses it: the operator imports certificates from a PEM
 * bundle file and marks them; it removes only certificates carrying its mark.
 */
export class RootCertificateStore {
  private readonly certs = new Map<string, StoredCertificate>();

  /** Add a certificate as Windows or an admin would (no operator mark). Returns its thumbprint. */
  add(pem: string, friendlyName = ''): string {
    const cert = new X509Certificate(pem);
    const thumbprint = thumbprintOf(cert);
    this.certs.set(thumbprint, { subject: cert.subject, der: cert.raw, friendlyName });
    return thumbprint;
  }

  thumbprints(): string[] {
    return [...this.certs.keys()].sort();
  }

  get(thumbprint: string): { subject: string; friendlyName: string } | undefined {
    const c = this.certs.get(thumbprint.toUpperCase());
    return c ? { subject: c.subject, friendlyName: c.friendlyName } : undefined;
  }

  /** The requested thumbprints that are present, plus every certificate carrying the operator's mark. */
  observe(requested: readonly string[]): { thumbprint: string; managed: boolean }[] {
    const wanted = new Set(requested.map((t) => t.toUpperCase()));
    return [...this.certs.entries()]
      .filter(([t, c]) => wanted.has(t) || c.friendlyName === MANAGED_CERTIFICATE_NAME)
      .map(([thumbprint, c]) => ({ thumbprint, managed: c.friendlyName === MANAGED_CERTIFICATE_NAME }))
      .sort((a, b) => a.thumbprint.localeCompare(b.thumbprint));
  }

  /**
   * Import-WmcoRootCertificates: the bundle's certificates whose thumbprints are listed; one already in the
   * store is left as it is. A listed thumbprint the bundle lacks is an error (the file is not what the
   * operator planned against), and nothing is imported then.
   */
  importFromBundle(bundle: Buffer | undefined, path: string, thumbprints: readonly string[]): void {
    if (bundle === undefined) throw new Error(`certificate bundle '${path}' does not exist`);
    const found = new Map<string, X509Certificate>();
    const blocks = bundle
      .toString('utf8')
      .match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g);
    for (const block of blocks ?? []) {
      try {
        const cert = new X509Certificate(block);
        found.set(thumbprintOf(cert), cert);
      } catch {
        // Not a certificate: Import-Certificate would fail on it too; it is never asked for.
      }
    }
    const missing = thumbprints.filter((t) => !found.has(t.toUpperCase()));
    if (missing.length > 0) throw new Error(`certificate(s) ${missing.join(', ')} not found in '${path}'`);
    for (const t of thumbprints) {
      const cert = found.get(t.toUpperCase())!;
      if (this.certs.has(t.toUpperCase())) continue;
      this.certs.set(t.toUpperCase(), {
        subject: cert.subject,
        der: cert.raw,
        friendlyName: MANAGED_CERTIFICATE_NAME,
      });
    }
  }

  /** `Remove-Item Cert:\LocalMachine\Root\<thumbprint>`: removes whatever it is; true when it was there. */
  remove(thumbprint: string): boolean {
    return this.certs.delete(thumbprint.toUpperCase());
  }

  /** Remove-WmcoManagedRootCertificates: every certificate with the operator's mark; their thumbprints. */
  removeAllManaged(): string[] {
    const marked = [...this.certs.entries()]
      .filter(([, c]) => c.friendlyName === MANAGED_CERTIFICATE_NAME)
      .map(([t]) => t)
      .sort();
    for (const t of marked) this.certs.delete(t);
    return marked;
  }

  /** Remove-WmcoRootCertificate: only a certificate with the operator's mark; a missing one is fine. */
  removeManaged(thumbprint: string): void {
    const c = this.certs.get(thumbprint.toUpperCase());
    if (c === undefined) return;
    if (c.friendlyName !== MANAGED_CERTIFICATE_NAME) {
      throw new Error(`certificate ${thumbprint} in the Root store was not added by the operator`);
    }
    this.certs.delete(thumbprint.toUpperCase());
  }
}

function thumbprintOf(cert: X509Certificate): string {
  return cert.fingerprint.replaceAll(':', '').toUpperCase();
}
