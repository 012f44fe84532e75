import { createHash, timingSafeEqual } from 'node:crypto';
import ssh2, { type AuthContext, type ParsedKey } from 'ssh2';

/** Parses an OpenSSH public key line or a private key; throws on garbage. */
export function parseKeyOrThrow(key: string | Buffer): ParsedKey {
  const parsed = ssh2.utils.parseKey(key);
  if (parsed instanceof Error) throw parsed;
  return parsed;
}

/** What the simulated sshd allows: one user, one authorized key, public-key only (with a kill switch). */
export interface AuthPolicy {
  readonly username: string;
  /** The keys in administrators_authorized_keys (the host accepts any of them). */
  authorizedKeys(): readonly ParsedKey[];
  refuse(): boolean;
  /** Each public key offered in an auth request, by its OpenSSH fingerprint (`SHA256:...`). */
  offered?(fingerprint: string): void;
}

/** A public key's OpenSSH fingerprint, as `ssh-keygen -lf` and sshd's auth log print it (`SHA256:<base64>`). */
export function sshFingerprint(publicSsh: Buffer): string {
  return `SHA256:${createHash('sha256').update(publicSsh).digest('base64').replace(/=+$/, '')}`;
}

function offeredKeyMatches(ctx: AuthContext, allowed: ParsedKey): boolean {
  if (ctx.method !== 'publickey') return false;
  const pub = allowed.getPublicSSH();
  return (
    ctx.key.algo === allowed.type && ctx.key.data.length === pub.length && timingSafeEqual(ctx.key.data, pub)
  );
}

/** Accepts the authorized key (checking the signature when one is sent); refuses everything else. */
export function authenticate(ctx: AuthContext, policy: AuthPolicy): void {
  if (ctx.method === 'publickey') policy.offered?.(sshFingerprint(ctx.key.data));
  const key = policy.authorizedKeys().find((k) => offeredKeyMatches(ctx, k));
  if (policy.refuse() || ctx.username !== policy.username || !key) {
    return ctx.reject(['publickey']);
  }
  if (ctx.method === 'publickey' && ctx.signature && ctx.blob) {
    if (key.verify(ctx.blob, ctx.signature, ctx.hashAlgo) !== true) return ctx.reject(['publickey']);
  }
  ctx.accept();
}

/**
 * An Ed25519 key pair in OpenSSH format. ssh2 1.17's generator drops a leading zero byte of the public key
 * (about 1 key in 256), writing a key it then cannot parse; such keys are thrown away and made again.
 */
export function generateEd25519KeyPair(): { private: string; public: string } {
  for (;;) {
    const pair = ssh2.utils.generateKeyPairSync('ed25519');
    const priv = ssh2.utils.parseKey(pair.private);
    if (!(priv instanceof Error) && !(ssh2.utils.parseKey(pair.public) instanceof Error)) return pair;
  }
}
