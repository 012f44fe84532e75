import type { ParsedKey } from 'ssh2';

/**
 * The SSH algorithms the operator offers (docs/security.md lists them). Nothing SHA-1 or DSA: no
 * `ssh-rsa` host keys or signatures, no `hmac-sha1`, no `diffie-hellman-*-sha1`, no `ssh-dss`. Windows
 * OpenSSH (7.7 in Windows Server 2019, 8.1 and 9.5 later) supports every family below. Ciphers are
 * ssh2's defaults (AES-GCM, AES-CTR, ChaCha20-Poly1305), which hold no CBC or 3DES modes.
 */
export const SSH_ALGORITHMS = {
  kex: [
    'curve25519-sha256',
    'curve25519-sha256@libssh.org',
    'ecdh-sha2-nistp256',
    'ecdh-sha2-nistp384',
    'ecdh-sha2-nistp521',
    'diffie-hellman-group-exchange-sha256',
    'diffie-hellman-group16-sha512',
    'diffie-hellman-group18-sha512',
    'diffie-hellman-group14-sha256',
  ],
  serverHostKey: [
    'ssh-ed25519',
    'ecdsa-sha2-nistp256',
    'ecdsa-sha2-nistp384',
    'ecdsa-sha2-nistp521',
    'rsa-sha2-512',
    'rsa-sha2-256',
  ],
  hmac: ['hmac-sha2-256-etm@openssh.com', 'hmac-sha2-512-etm@openssh.com', 'hmac-sha2-256', 'hmac-sha2-512'],
} as const;

/** The message of the error ssh2 reports when the only signature left would be SHA-1. */
export const SHA1_SIGNATURE_REFUSED = 'refusing an ssh-rsa (SHA-1) signature';

/**
 * The private key as ssh2 uses it for user authentication, except that an RSA key never signs with SHA-1:
 * ssh2 falls back to `ssh-rsa` when a server announces no `server-sig-algs`, and this refuses that
 * signature instead (the connection fails with AuthenticationError).
 */
export function sha2OnlyKey(key: ParsedKey): ParsedKey {
  const wrapped = Object.create(key) as ParsedKey;
  wrapped.sign = (data: Buffer | string, algo?: string): Buffer => {
    if (key.type === 'ssh-rsa' && (algo === undefined || algo === 'sha1')) {
      // ssh2 checks the result with `instanceof Error` (its typings say Buffer only).
      const refused = new Error(
        `${SHA1_SIGNATURE_REFUSED}: the server offers neither rsa-sha2-256 nor rsa-sha2-512`,
      );
      return refused as unknown as Buffer;
    }
    return key.sign(data, algo);
  };
  return wrapped;
}
