import { createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';

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

/**
 * Google's OAuth2 token endpoint for one service account: the JWT-bearer grant (RFC 7523), RS256
 * assertions verified against the key it issued, access tokens with a lifetime.
 */
export class GceTokenIssuer {
  readonly key: ServiceAccountKey;
  private readonly publicKeyPem: string;
  private readonly tokens = new Map<string, number>();

  constructor(project: string, tokenUri: string) {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    this.key = {
      type: 'service_account',
      project_id: project,
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: `wmco-sim@${project}.iam.gserviceaccount.com`,
      client_id: String(100_000_000_000_000_000_000n + BigInt(randomBytes(4).readUInt32BE())),
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: tokenUri,
    };
  }

  /** Answers a token request body (form-encoded); throws TokenError as Google does (HTTP 400). */
  grant(body: string, now = Date.now()): { access_token: string; expires_in: number; token_type: 'Bearer' } {
    const form = new URLSearchParams(body);
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
      throw new TokenError('unsupported_grant_type', 'Invalid grant_type: ' + String(form.get('grant_type')));
    this.checkClaims(this.verify(form.get('assertion') ?? ''), now);
    const token = `ya29.sim-${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, now + 3600_000);
    return { access_token: token, expires_in: 3599, token_type: 'Bearer' };
  }

  /** True when the bearer token was issued here and has not expired. */
  valid(token: string, now = Date.now()): boolean {
    const until = this.tokens.get(token);
    return until !== undefined && until > now;
  }

  /** Issues a token without a JWT (for clients given an access token directly, e.g. gcloud --access-token-file). */
  issueDirect(): string {
    const token = `ya29.sim-${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, Date.now() + 3600_000);
    return token;
  }

  private checkClaims(claims: JwtClaims, now: number): void {
    if (claims.iss !== this.key.client_email)
      throw new TokenError('invalid_grant', 'Invalid JWT: iss unknown');
    if (claims.aud !== this.key.token_uri && claims.aud !== GOOGLE_TOKEN_AUDIENCE)
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

  private verify(jwt: string): JwtClaims {
    const [header = '', payload = '', signature = ''] = jwt.split('.');
    const verifier = createVerify('RSA-SHA256');
    verifier.update(`${header}.${payload}`);
    if (!verifier.verify(this.publicKeyPem, Buffer.from(signature, 'base64url')))
      throw new TokenError('invalid_grant', 'Invalid JWT Signature.');
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as JwtClaims;
  }
}
