import { createHash } from 'node:crypto';
import ssh2, { type ParsedKey } from 'ssh2';

const { utils } = ssh2;
import { PrivateKeyError } from '../errors.js';
import type { HostLogger } from '../host-logger.js';
import { fromPkcs8 } from './pkcs8-key.js';

const SUPPORTED = new Set([
  'ssh-rsa',
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
]);

/** A usable private key: the PEM/OpenSSH text for ssh2, its type, and its public key fingerprint. */
export interface LoadedPrivateKey {
  readonly pem: Buffer;
  /** The parsed key, for user authentication (never an SHA-1 signature: see sha2OnlyKey). */
  readonly key: ParsedKey;
  readonly type: string;
  readonly fingerprint: string;
}

/** Bits of an RSA modulus, from the public key's SSH wire format (string type, mpint e, mpint n). */
function rsaBits(publicSsh: Buffer): number {
  let offset = 0;
  const next = (): Buffer => {
    const len = publicSsh.readUInt32BE(offset);
    const out = publicSsh.subarray(offset + 4, offset + 4 + len);
    offset += 4 + len;
    return out;
  };
  next();
  next();
  const n = next();
  let i = 0;
  while (i < n.length && n[i] === 0) i++;
  const first = n[i] ?? 0;
  return (n.length - i - 1) * 8 + (first === 0 ? 0 : Math.floor(Math.log2(first)) + 1);
}

function checkStrength(type: string, publicSsh: Buffer, fingerprint: string, logger: HostLogger): void {
  if (type === 'ssh-dss') {
    throw new PrivateKeyError(
      `DSA keys are not supported (${fingerprint}): DSA signs with SHA-1 and OpenSSH disabled it; use Ed25519, ECDSA or RSA`,
    );
  } else if (!SUPPORTED.has(type)) {
    throw new PrivateKeyError(`unsupported key type '${type}' (use RSA, ECDSA or Ed25519)`);
  } else if (type === 'ssh-rsa' && rsaBits(publicSsh) < 2048) {
    logger.warn(`the SSH private key is RSA with ${rsaBits(publicSsh)} bits; use at least 2048`, {
      fingerprint,
    });
  }
}

/**
 * Parses an RSA, ECDSA or Ed25519 private key in PEM (PKCS#1, SEC1, PKCS#8) or OpenSSH format, without a passphrase (as upstream).
 * A DSA key is refused (SHA-1 only); an RSA key under 2048 bits still works but the logger gets a warning.
 */
export function loadPrivateKey(data: string | Buffer, logger: HostLogger): LoadedPrivateKey {
  const text = Buffer.isBuffer(data) ? data.toString('utf8') : data;
  // Every connection (each drift check) loads the operator's key: parse it once per key.
  if (loaded?.text === text) return loaded.key;
  const key = parsePrivateKey(data, logger);
  loaded = { text, key };
  return key;
}

/** The key loaded last, by its text (a parsed key is never modified). */
let loaded: { readonly text: string; readonly key: LoadedPrivateKey } | undefined;

function parsePrivateKey(data: string | Buffer, logger: HostLogger): LoadedPrivateKey {
  let pem: Buffer;
  let parsed: ParsedKey | Error;
  try {
    pem = fromPkcs8(Buffer.isBuffer(data) ? data : Buffer.from(data));
    parsed = utils.parseKey(pem);
  } catch (err) {
    throw new PrivateKeyError(`cannot parse it (${err instanceof Error ? err.message : String(err)})`);
  }
  if (parsed instanceof Error) throw new PrivateKeyError(`cannot parse it (${parsed.message})`);
  const key = Array.isArray(parsed) ? (parsed[0] as ParsedKey) : parsed;
  if (!key.isPrivateKey()) throw new PrivateKeyError('this is a public key, not a private key');
  const publicSsh = key.getPublicSSH();
  const fingerprint = `SHA256:${createHash('sha256').update(publicSsh).digest('base64').replace(/=+$/, '')}`;
  checkStrength(key.type, publicSsh, fingerprint, logger);
  return { pem, key, type: key.type, fingerprint };
}
