import { proxyCredentials } from '@wmco/core/internal';

const SENSITIVE_KEYS = new Set([
  'privatekey',
  'privatekeypem',
  'token',
  'bearertoken',
  'password',
  'userdata',
  'authorization',
  'clientkey',
  'clientkeydata',
  'dockerconfigjson',
  'auth',
  'secret',
]);
const PRIVATE_KEY_PEM =
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g;
const BEARER = /\bBearer\s+[A-Za-z0-9._~+/-]+=*/g;
/**
 * The userinfo of a URL with a scheme, up to the authority's last `@` (`http://user:p@ss@proxy`). Both
 * parts are bounded, so a long hostile text costs linear time (longer credentials are still caught when
 * registered).
 */
const URL_USERINFO = /\b([A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/)[^\s/?#]{0,255}@/g;
const MIN_SECRET = 8;

function normalise(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * Removes secrets from anything about to be logged or put in an event: values under sensitive keys,
 * PEM private keys and bearer tokens anywhere in text, and every secret value registered at run time
 * (the private key read from its Secret, bootstrap tokens, user data), wherever it appears.
 */
export class Redactor {
  private readonly secrets = new Set<string>();

  /** Registers a secret value; from now on it never appears in logs or events. */
  register(secret: string | undefined): void {
    if (secret === undefined || secret.length < MIN_SECRET) return;
    this.secrets.add(secret);
    for (const line of secret.split('\n').map((l) => l.trim())) {
      if (line.length >= 24 && !line.startsWith('-----')) this.secrets.add(line);
    }
  }

  /**
   * Registers the credentials of a proxy value (`http://user:pass@proxy:3128`, or `user:pass@proxy:3128`
   * without a scheme, where no pattern can find them in free text): as written, percent-decoded, and the
   * password alone when it is long enough to be told from ordinary words.
   */
  registerProxy(value: string | undefined): void {
    for (const secret of proxyCredentials(value ?? '')) this.register(secret);
  }

  scrubText(text: string): string {
    let out = text
      .replace(PRIVATE_KEY_PEM, '[REDACTED PRIVATE KEY]')
      .replace(BEARER, 'Bearer [REDACTED]')
      .replace(URL_USERINFO, '$1[REDACTED]@');
    for (const s of [...this.secrets].sort((a, b) => b.length - a.length)) {
      if (out.includes(s)) out = out.split(s).join('[REDACTED]');
    }
    return out;
  }

  /** A deep copy of `value` with secrets replaced; cycles and depth are bounded. */
  scrub(value: unknown, depth = 0): unknown {
    if (typeof value === 'string') return this.scrubText(value);
    if (typeof value !== 'object' || value === null) return value;
    if (depth > 8) return '[…]';
    if (value instanceof Error) return this.scrubText(value.message);
    if (Array.isArray(value)) return value.map((v) => this.scrub(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SENSITIVE_KEYS.has(normalise(k)) ? '[REDACTED]' : this.scrub(v, depth + 1);
    }
    return out;
  }
}
