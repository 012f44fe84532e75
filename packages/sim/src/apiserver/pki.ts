import { randomBytes } from 'node:crypto';
import {
  EC_ALG,
  distinguishedName,
  generateKeys,
  privateKeyPem,
  x509,
  type Key,
  type KeyPair,
} from './x509.js';

export interface IssueRequest {
  readonly subject: string;
  readonly publicKey: x509.PublicKey | Key;
  readonly keyUsages: number;
  readonly extendedKeyUsages: readonly string[];
  readonly sans?: readonly { readonly type: 'dns' | 'ip' | 'email' | 'url'; readonly value: string }[];
  readonly seconds: number;
}

export interface KeyAndCert {
  readonly certPem: string;
  readonly keyPem: string;
}

function serial(): string {
  const b = randomBytes(16);
  b[0] = (b[0] ?? 0) & 0x7f;
  return b.toString('hex');
}

/** A cluster certificate authority: self-signed, ECDSA P-256, used for serving, client and kubelet certs. */
export class ClusterCa {
  private constructor(
    private readonly keys: KeyPair,
    readonly cert: x509.X509Certificate,
    readonly certPem: string,
  ) {}

  static async create(commonName = 'wmco-sim-ca'): Promise<ClusterCa> {
    const keys = await generateKeys();
    const now = Date.now();
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: serial(),
      name: distinguishedName(commonName),
      notBefore: new Date(now - 60_000),
      notAfter: new Date(now + 10 * 365 * 86_400_000),
      keys: keys as never,
      signingAlgorithm: EC_ALG,
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      ],
    });
    return new ClusterCa(keys, cert, cert.toString('pem'));
  }

  async issue(req: IssueRequest): Promise<string> {
    const now = Date.now();
    const extensions: x509.Extension[] = [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(req.keyUsages, true),
      await x509.AuthorityKeyIdentifierExtension.create(this.cert),
    ];
    if (req.extendedKeyUsages.length > 0)
      extensions.push(new x509.ExtendedKeyUsageExtension([...req.extendedKeyUsages]));
    if (req.sans && req.sans.length > 0)
      extensions.push(new x509.SubjectAlternativeNameExtension([...req.sans]));
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: serial(),
      subject: req.subject,
      issuer: this.cert.subject,
      notBefore: new Date(now - 60_000),
      notAfter: new Date(now + req.seconds * 1000),
      publicKey: req.publicKey as never,
      signingKey: this.keys.privateKey as never,
      signingAlgorithm: EC_ALG,
      extensions,
    });
    return cert.toString('pem');
  }

  /** A serving certificate for the given loopback host names and addresses. */
  async serving(dnsNames: readonly string[], ips: readonly string[]): Promise<KeyAndCert> {
    const keys = await generateKeys();
    const certPem = await this.issue({
      subject: distinguishedName('wmco-sim-apiserver'),
      publicKey: keys.publicKey,
      keyUsages: x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
      extendedKeyUsages: [x509.ExtendedKeyUsage.serverAuth],
      sans: [
        ...dnsNames.map((value) => ({ type: 'dns' as const, value })),
        ...ips.map((value) => ({ type: 'ip' as const, value })),
      ],
      seconds: 365 * 86_400,
    });
    return { certPem, keyPem: await privateKeyPem(keys.privateKey) };
  }

  /** A client certificate: CN is the user, O the groups (how the apiserver reads client certs). */
  async client(user: string, groups: readonly string[]): Promise<KeyAndCert> {
    const keys = await generateKeys();
    const certPem = await this.issue({
      subject: distinguishedName(user, groups),
      publicKey: keys.publicKey,
      keyUsages: x509.KeyUsageFlags.digitalSignature,
      extendedKeyUsages: [x509.ExtendedKeyUsage.clientAuth],
      seconds: 365 * 86_400,
    });
    return { certPem, keyPem: await privateKeyPem(keys.privateKey) };
  }
}
