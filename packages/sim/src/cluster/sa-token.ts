import { createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

/** The claims of a legacy (Secret-based) service-account token, as kube-controller-manager signs them. */
export interface LegacyTokenClaims {
  readonly namespace: string;
  readonly secretName: string;
  readonly serviceAccountName: string;
  readonly serviceAccountUid: string;
}

const ISSUER = 'kubernetes/serviceaccount';
const P = 'kubernetes.io/serviceaccount/';
const b64url = (v: string | Buffer): string => Buffer.from(v).toString('base64url');

/**
 * The service-account signing key: ES256 JWTs with the legacy claims (`iss: kubernetes/serviceaccount`,
 * `kubernetes.io/serviceaccount/{namespace,secret.name,service-account.name,service-account.uid}`, `sub`).
 */
export class ServiceAccountTokenSigner {
  private readonly key: KeyObject;
  private readonly publicKey: KeyObject;
  private readonly kid: string;

  constructor() {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.key = privateKey;
    this.publicKey = createPublicKey(privateKey);
    this.kid = b64url(this.publicKey.export({ format: 'der', type: 'spki' }).subarray(-16));
  }

  sign(c: LegacyTokenClaims): string {
    const header = b64url(JSON.stringify({ alg: 'ES256', kid: this.kid }));
    const payload = b64url(
      JSON.stringify({
        iss: ISSUER,
        [`${P}namespace`]: c.namespace,
        [`${P}secret.name`]: c.secretName,
        [`${P}service-account.name`]: c.serviceAccountName,
        [`${P}service-account.uid`]: c.serviceAccountUid,
        sub: `system:serviceaccount:${c.namespace}:${c.serviceAccountName}`,
      }),
    );
    const sig = sign('sha256', Buffer.from(`${header}.${payload}`), {
      key: this.key,
      dsaEncoding: 'ieee-p1363',
    });
    return `${header}.${payload}.${b64url(sig)}`;
  }

  /** The claims of a token this key signed; undefined for anything else (other issuers, bad signatures). */
  verify(token: string): LegacyTokenClaims | undefined {
    const [header, payload, sig] = token.split('.');
    if (header === undefined || payload === undefined || sig === undefined) return undefined;
    const ok = verify(
      'sha256',
      Buffer.from(`${header}.${payload}`),
      { key: this.publicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(sig, 'base64url'),
    );
    if (!ok) return undefined;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const get = (k: string): string =>
      typeof claims[`${P}${k}`] === 'string' ? (claims[`${P}${k}`] as string) : '';
    if (claims['iss'] !== ISSUER) return undefined;
    return {
      namespace: get('namespace'),
      secretName: get('secret.name'),
      serviceAccountName: get('service-account.name'),
      serviceAccountUid: get('service-account.uid'),
    };
  }
}
