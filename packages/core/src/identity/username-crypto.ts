import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';

const PREFIX = 'wmco1:';
const INFO = Buffer.from('windowsmachineconfig.openshift.io/username');

/** Annotation values kept decrypted per key at most (a fleet's worth; the map starts over when full). */
const DECRYPTED_MAX = 10_000;

/**
 * The key derived last, by the private key it came from, and the annotation values it decrypted: record
 * checks decrypt a username per node each time the nodes or the entries change (a quarter of the
 * operator's CPU at 1,000 nodes). A value is kept only after it authenticated under this key, so a
 * changed value, or another key, is decrypted (and refused) again.
 */
let derived:
  { readonly pem: string; readonly key: KeyObject; readonly plain: Map<string, string> } | undefined;

function derive(privateKeyPem: string): NonNullable<typeof derived> {
  if (privateKeyPem.trim() === '')
    throw new Error('cannot derive an encryption key from an empty private key');
  if (derived?.pem !== privateKeyPem) {
    const raw = hkdfSync('sha256', Buffer.from(privateKeyPem, 'utf8'), Buffer.alloc(0), INFO, 32);
    derived = { pem: privateKeyPem, key: createSecretKey(Buffer.from(raw)), plain: new Map() };
  }
  return derived;
}

/**
 * Encrypts a BYOH username for the Node's `username` annotation, with a key derived from the operator's
 * private key (HKDF-SHA256, AES-256-GCM). Deliberately not upstream's OpenPGP format: the annotation is
 * private to the operator, and an authenticated cipher makes a wrong key or a tampered value an error.
 */
export function encryptUsername(username: string, privateKeyPem: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derive(privateKeyPem).key, iv);
  const body = Buffer.concat([cipher.update(username, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** Decrypts what `encryptUsername` made; throws for another key or a modified value. */
export function decryptUsername(value: string, privateKeyPem: string): string {
  if (!value.startsWith(PREFIX)) throw new Error('username annotation is not in the wmco1 format');
  const d = derive(privateKeyPem);
  const known = d.plain.get(value);
  if (known !== undefined) return known;
  const raw = Buffer.from(value.slice(PREFIX.length), 'base64');
  if (raw.length < 28) throw new Error('username annotation is truncated');
  const decipher = createDecipheriv('aes-256-gcm', d.key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  let plain: string;
  try {
    plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('username annotation does not decrypt with the current private key');
  }
  if (d.plain.size >= DECRYPTED_MAX) d.plain.clear();
  d.plain.set(value, plain);
  return plain;
}
