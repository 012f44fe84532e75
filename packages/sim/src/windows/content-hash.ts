import { createHash } from 'node:crypto';

// File contents are immutable Buffers in the model (the SFTP server and every writer store a new Buffer;
// nothing writes into a stored one), so a hash can be remembered per Buffer. The real module re-hashes on
// every observe and every placed file; that costs the Windows host's CPU, here it would cost ours.
const known = new WeakMap<Buffer, string>();

/** SHA-256 of `data` in lower-case hex, computed once per Buffer. */
export function sha256Of(data: Buffer): string {
  let hash = known.get(data);
  if (hash === undefined) {
    hash = createHash('sha256').update(data).digest('hex');
    known.set(data, hash);
  }
  return hash;
}

/**
 * Records the SHA-256 of a Buffer computed elsewhere (the extraction thread hashed its bytes); only for a
 * Buffer that is never written to afterwards.
 */
export function rememberSha256(data: Buffer, sha256: string): void {
  known.set(data, sha256);
}
