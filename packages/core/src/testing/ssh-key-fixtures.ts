import ssh2 from 'ssh2';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';

/** A freshly generated public key in `authorized_keys` form, with a comment. */
export interface SshPublicKeyFixture {
  /** `rsa`, `ecdsa-p256`, `ecdsa-p384`, `ecdsa-p521` or `ed25519`. */
  readonly kind: string;
  /** `<type> <base64> <comment>`. */
  readonly authorizedKey: string;
  readonly comment: string;
}

function sshString(data: Buffer | string): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** RFC 4251 mpint: big-endian, with a leading zero byte when the top bit is set. */
function sshMpint(unsigned: Buffer): Buffer {
  let start = 0;
  while (start < unsigned.length - 1 && unsigned[start] === 0) start++;
  const trimmed = unsigned.subarray(start);
  const needsPad = (trimmed[0] ?? 0) & 0x80;
  return sshString(needsPad ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

function jwkField(key: KeyObject, field: 'n' | 'e' | 'x' | 'y'): Buffer {
  const value = key.export({ format: 'jwk' })[field];
  if (typeof value !== 'string') throw new Error(`public key has no JWK field '${field}'`);
  return Buffer.from(value, 'base64url');
}

/** The OpenSSH wire encoding (RFC 4253 §6.6, RFC 5656 §3.1, RFC 8709 §4) of a node:crypto public key. */
function opensshBlob(kind: string, key: KeyObject): { type: string; blob: Buffer } {
  if (kind === 'rsa') {
    const blob = Buffer.concat([
      sshString('ssh-rsa'),
      sshMpint(jwkField(key, 'e')),
      sshMpint(jwkField(key, 'n')),
    ]);
    return { type: 'ssh-rsa', blob };
  }
  if (kind === 'ed25519') {
    return {
      type: 'ssh-ed25519',
      blob: Buffer.concat([sshString('ssh-ed25519'), sshString(jwkField(key, 'x'))]),
    };
  }
  const curve = kind.replace('ecdsa-p', 'nistp');
  const point = Buffer.concat([Buffer.from([4]), jwkField(key, 'x'), jwkField(key, 'y')]);
  const type = `ecdsa-sha2-${curve}`;
  return { type, blob: Buffer.concat([sshString(type), sshString(curve), sshString(point)]) };
}

function generate(kind: string): KeyObject {
  switch (kind) {
    case 'rsa':
      return generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    case 'ed25519':
      return generateKeyPairSync('ed25519').publicKey;
    default:
      return generateKeyPairSync('ec', { namedCurve: `P-${kind.replace('ecdsa-p', '')}` }).publicKey;
  }
}

/** Encodes a node:crypto public key (RSA, EC P-256/384/521 or Ed25519) as an `authorized_keys` line. */
export function authorizedKeyLine(kind: string, key: KeyObject, comment: string): string {
  const { type, blob } = opensshBlob(kind, key);
  return `${type} ${blob.toString('base64')} ${comment}`;
}

let cached: readonly SshPublicKeyFixture[] | undefined;

/**
 * One fresh key of each type OpenSSH on Windows accepts, generated once per process (RSA generation
 * costs tens of milliseconds) and shared by every check that needs keys.
 */
export function sshPublicKeyFixtures(): readonly SshPublicKeyFixture[] {
  cached ??= ['rsa', 'ecdsa-p256', 'ecdsa-p384', 'ecdsa-p521', 'ed25519'].map((kind) => {
    const comment = `contract-suite-${kind}@wmco.test`;
    return { kind, comment, authorizedKey: authorizedKeyLine(kind, generate(kind), comment) };
  });
  return cached;
}

/** ssh2 1.17 sometimes writes an Ed25519 key it cannot read back (a dropped leading zero); skip those. */
export function openSshEd25519(): { private: string; public: string } {
  for (;;) {
    const pair = ssh2.utils.generateKeyPairSync('ed25519');
    if (!(ssh2.utils.parseKey(pair.private) instanceof Error)) return pair;
  }
}
