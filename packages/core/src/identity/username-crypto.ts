import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const PREFIX = 'wmco1:';
const INFO = Buffer.from('windowsmachineconfig.openshift.io/username');

/** The key derived last, by the private key it came from: record checks decrypt a username per node. */
let derived: { readonly pem: string; readonly key: Buffer } | undefined;

function keyFrom(privateKeyPem: string): Buffer {
  if (privateKeyPem.trim() === '')
    throw new Error('cannot derive an encryption key from an empty private key');
  if (derived?.pem !== privateKeyPem) {
    const key = Buffer.from(
      hkdfSync('sha256', Buffer.from(privateKeyPem, 'utf8'), Buffer.alloc(0), INFO, 32),
    );
    derived = { pem: privateKeyPem, key };
  }
  return derived.key;
}

/**
 * Encrypts a BYOH username for the Node's `username` annotation, with a key derived from the operator's
 * private key (HKDF-SHA256, AES-256-GCM). Deliberately not upstream's OpenPGP format: the annotation is
 * private to the operator, and an authenticated cipher makes a wrong key or a tampered value an error.
 */
export function encryptUsername(username: string, privateKeyPem: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFrom(privateKeyPem), iv);
  const body = Buffer.concat([cipher.update(username, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** Decrypts what `encryptUsername` made; throws for another key or a modified value. */
export function decryptUsername(value: string, privateKeyPem: string): string {
  if (!value.startsWith(PREFIX)) throw new Error('username annotation is not in the wmco1 format');
  const raw = Buffer.from(value.slice(PREFIX.length), 'base64');
  if (raw.length < 28) throw new Error('username annotation is truncated');
  const decipher = createDecipheriv('aes-256-gcm', keyFrom(privateKeyPem), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  try {
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('username annotation does not decrypt with the current private key');
  }
}
