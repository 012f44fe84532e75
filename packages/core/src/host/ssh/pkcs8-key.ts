import { createPrivateKey, randomBytes } from 'node:crypto';

function sshString(data: Buffer | string): Buffer {
  const body = Buffer.isBuffer(data) ? data : Buffer.from(data);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length);
  return Buffer.concat([len, body]);
}

/** An unencrypted `openssh-key-v1` private key for an Ed25519 seed and public key. */
function openSshEd25519(seed: Buffer, pub: Buffer): string {
  const publicBlob = Buffer.concat([sshString('ssh-ed25519'), sshString(pub)]);
  const check = randomBytes(4);
  let secret = Buffer.concat([
    check,
    check,
    sshString('ssh-ed25519'),
    sshString(pub),
    sshString(Buffer.concat([seed, pub])),
    sshString(''),
  ]);
  const pad = (8 - (secret.length % 8)) % 8;
  secret = Buffer.concat([secret, Buffer.from(Array.from({ length: pad }, (_, i) => i + 1))]);
  const nkeys = Buffer.alloc(4);
  nkeys.writeUInt32BE(1);
  const blob = Buffer.concat([
    Buffer.from('openssh-key-v1\0'),
    sshString('none'),
    sshString('none'),
    sshString(''),
    nkeys,
    sshString(publicBlob),
    sshString(secret),
  ]);
  const lines = blob.toString('base64').match(/.{1,70}/g) ?? [];
  return ['-----BEGIN OPENSSH PRIVATE KEY-----', ...lines, '-----END OPENSSH PRIVATE KEY-----', ''].join(
    '\n',
  );
}

/**
 * ssh2 reads PKCS#1 RSA, SEC1 EC and OpenSSH keys, but not PKCS#8 (`BEGIN PRIVATE KEY`), which Go's
 * ssh.ParsePrivateKey (upstream) accepts. Rewrites a PKCS#8 key into a form ssh2 reads; other input is
 * returned unchanged.
 */
export function fromPkcs8(pem: Buffer): Buffer {
  const text = pem.toString('utf8');
  if (!text.includes('-----BEGIN PRIVATE KEY-----')) return pem;
  const key = createPrivateKey(text);
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return Buffer.from(key.export({ type: 'pkcs1', format: 'pem' }));
    case 'ec':
      return Buffer.from(key.export({ type: 'sec1', format: 'pem' }));
    case 'ed25519': {
      const jwk = key.export({ format: 'jwk' });
      return Buffer.from(
        openSshEd25519(Buffer.from(jwk.d ?? '', 'base64url'), Buffer.from(jwk.x ?? '', 'base64url')),
      );
    }
    default:
      return pem;
  }
}
