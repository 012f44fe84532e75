import { createHash } from 'node:crypto';

const KEY_TYPES = new Set([
  'ssh-rsa',
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
]);
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** An OpenSSH public key reduced to `<type> <base64>` (no comment), the form upstream marshals. */
export interface AuthorizedKey {
  readonly type: string;
  readonly base64: string;
  /** `<type> <base64>`: what goes in `administrators_authorized_keys` (plus a newline). */
  readonly line: string;
}

/**
 * Parses one `authorized_keys`-style public key line (`<type> <base64> [comment]`). The comment is
 * dropped; the type must match the key blob's own type. Throws a clear error for anything else, so nothing
 * malformed ever reaches a script.
 */
export function parseAuthorizedKey(text: string): AuthorizedKey {
  const fields = text.trim().split(/\s+/);
  const [type, base64] = fields;
  if (!type || !base64) throw new Error('public key must look like "<type> <base64> [comment]"');
  if (!KEY_TYPES.has(type)) throw new Error(`unsupported public key type '${type}'`);
  if (!BASE64.test(base64)) throw new Error('public key data is not base64');
  const blob = Buffer.from(base64, 'base64');
  const nameLength = blob.length >= 4 ? blob.readUInt32BE(0) : -1;
  const embedded =
    nameLength > 0 && nameLength <= blob.length - 4 ? blob.subarray(4, 4 + nameLength).toString() : '';
  if (embedded !== type) throw new Error(`public key data is not a '${type}' key`);
  return { type, base64, line: `${type} ${base64}` };
}

/**
 * The `windowsmachineconfig.openshift.io/pub-key-hash` value: lowercase hex SHA-256 of `<type> <base64>`
 * (reference §1.11).
 */
export function publicKeyHash(key: AuthorizedKey): string {
  return createHash('sha256').update(key.line).digest('hex');
}
