import { createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';
import type { CloudGrants } from '../cloud-grants.js';

/** The audience Google's token endpoint accepts besides its own `token_uri` (google-auth-library sends it). */
export const GOOGLE_TOKEN_AUDIENCE = 'https://oauth2.googleapis.com/token';

export interface ServiceAccountKey {
  readonly type: 'service_account';
  readonly project_id: string;
  readonly private_key_id: string;
  readonly private_key: string;
  readonly client_email: string;
  readonly client_id: string;
  readonly auth_uri: string;
  readonly token_uri: string;
}

export class TokenError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

interface JwtClaims {
  readonly iss?: unknown;
  readonly aud?: unknown;
  readonly scope?: unknown;
  readonly exp?: unknown;
  readonly iat?: unknown;
}

const COMPUTE_SCOPES = [
  'https://www.googleapis.com/auth/compute',
  'https://www.googleapis.com/auth/cloud-platform',
];

/** A service account of the project: its key, the public half the token endpoint checks, its roles. */
export interface GceServiceAccount {
  readonly key: ServiceAccountKey;
  readonly publicKeyPem: string;
  readonly grants: CloudGrants;
}

/**
 * Google's OAuth2 token endpoint for the project's service accounts: the JWT-bearer grant (RFC 7523),
 * RS256 assertions verified against the key of the account they name, access tokens with a lifetime.
 * `key` is the installer's account (every permission); `addServiceAccount` adds ones whose roles hold
 * only the listed permissions.
 */
export class GceTokenIssuer {
  readonly key: ServiceAccountKey;
  private readonly accounts = new Map<string, GceServiceAccount>();
  private readonly tokens = new Map<string, { until: number; account: GceServiceAccount | undefined }>();

  constructor(
    private readonly project: string,
    private readonly tokenUri: string,
  ) {
    this.key = this.addServiceAccount('wmco-sim', 'all');
  }

  /** A new service account `<name>@<project>.iam.gserviceaccount.com` with a key; returns the key JSON. */
  addServiceAccount(name: string, grants: CloudGrants): ServiceAccountKey {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const key: ServiceAccountKey = {
      type: 'service_account',
      project_id: this.project,
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: `${name}@${this.project}.iam.gserviceaccount.com`,
      client_id: String(100_000_000_000_000_000_000n + BigInt(randomBytes(4).readUInt32BE())),
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: this.tokenUri,
    };
    const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    this.accounts.set(key.client_email, { key, publicKeyPem, grants });
    return key;
  }

  /** Answers a token request body (form-encoded); throws TokenError as Google does (HTTP 400). */
  grant(body: string, now = Date.now()): { access_token: string; expires_in: number; token_type: 'Bearer' } {
    const form = new URLSearchParams(body);
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
      throw new TokenError('unsupported_grant_type', 'Invalid grant_type: ' + String(form.get('grant_type')));
    const account = this.verify(form.get('assertion') ?? '');
    this.checkClaims(account.claims, account.account, now);
    const token = `ya29.sim-${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, { until: now + 3600_000, account: account.account });
    return { access_token: token, expires_in: 3599, token_type: 'Bearer' };
  }

  /** The account a bearer token was issued to, while it has not expired (undefined: not valid). */
  accountOf(token: string, now = Date.now()): GceServiceAccount | undefined {
    const t = this.tokens.get(token);
    return t !== undefined && t.until > now ? t.account : undefined;
  }

  /** True when the bearer token was issued here and has not expired. */
  valid(token: string, now = Date.now()): boolean {
    return this.accountOf(token, now) !== undefined;
  }

  /** Issues a token of the installer's account without a JWT (gcloud `--access-token-file`). */
  issueDirect(): string {
    const token = `ya29.sim-${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, {
      until: Date.now() + 3600_000,
      account: this.accounts.get(this.key.client_email),
    });
    return token;
  }

  private checkClaims(claims: JwtClaims, account: GceServiceAccount, now: number): void {
    if (claims.aud !== account.key.token_uri && claims.aud !== GOOGLE_TOKEN_AUDIENCE)
      throw new TokenError('invalid_grant', 'Invalid JWT: Failed audience check.');
    if (typeof claims.exp !== 'number' || claims.exp * 1000 < now)
      throw new TokenError(
        'invalid_grant',
        'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.',
      );
    const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
    if (!scopes.some((s) => COMPUTE_SCOPES.includes(s)))
      throw new TokenError('invalid_scope', 'Invalid OAuth scope or ID token audience provided.');
  }

  /** The account the assertion's `iss` names, once its signature checks out against that account's key. */
  private verify(jwt: string): { claims: JwtClaims; account: GceServiceAccount } {
    const [header = '', payload = '', signature = ''] = jwt.split('.');
    let claims: JwtClaims;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as JwtClaims;
    } catch {
      throw new TokenError('invalid_grant', 'Invalid JWT: malformed payload.');
    }
    const account = typeof claims.iss === 'string' ? this.accounts.get(claims.iss) : undefined;
    if (!account) throw new TokenError('invalid_grant', 'Invalid JWT: iss unknown');
    const verifier = createVerify('RSA-SHA256');
    verifier.update(`${header}.${payload}`);
    if (!verifier.verify(account.publicKeyPem, Buffer.from(signature, 'base64url')))
      throw new TokenError('invalid_grant', 'Invalid JWT Signature.');
    return { claims, account };
  }
}
