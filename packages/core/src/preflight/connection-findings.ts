import {
  AuthenticationError,
  HostKeyMismatchError,
  HostUnreachableError,
  PrivateKeyError,
} from '../host/errors.js';
import type { LoadedPrivateKey } from '../host/ssh/private-key.js';
import { fail, pass, warn, type Finding } from './finding.js';

const AUTHORIZED_KEYS = 'C:\\ProgramData\\ssh\\administrators_authorized_keys';

export function reachabilityFinding(ipv4: string, port: number, error: Error | undefined): Finding {
  if (!error) return pass('reachability', `TCP ${port} on ${ipv4} accepts connections`);
  return fail(
    'reachability',
    `cannot connect to TCP ${port} on ${ipv4}: ${error.message}`,
    `start OpenSSH (Start-Service sshd; Set-Service sshd -StartupType Automatic), allow TCP ${port} inbound (rule OpenSSH-Server-In-TCP), and check routes and security groups between here and the host`,
  );
}

/** True when the error comes from the connection itself (before any command ran on the host). */
export function isConnectError(err: unknown): boolean {
  return (
    err instanceof AuthenticationError ||
    err instanceof HostUnreachableError ||
    err instanceof HostKeyMismatchError ||
    err instanceof PrivateKeyError
  );
}

/** The SSH check: the key could not be used, the host refused it, or it worked (maybe with a weak key). */
export function sshFinding(
  username: string,
  key: LoadedPrivateKey | undefined,
  error: unknown,
  keyWarnings: readonly string[],
): Finding {
  if (error instanceof PrivateKeyError || !key)
    return fail(
      'ssh',
      error instanceof Error ? error.message : 'the private key cannot be used',
      'use an unencrypted RSA (at least 2048 bits), ECDSA or Ed25519 private key in PEM or OpenSSH format',
    );
  if (error instanceof AuthenticationError)
    return fail(
      'ssh',
      `the host refused public key ${key.fingerprint} for '${username}'`,
      `put the public key (ssh-keygen -y -f <key>) in ${AUTHORIZED_KEYS} with an ACL granting only Administrators and SYSTEM (icacls ${AUTHORIZED_KEYS} /inheritance:r /grant Administrators:F /grant SYSTEM:F), and make sure PubkeyAuthentication is yes in sshd_config`,
    );
  if (error !== undefined && isConnectError(error))
    return fail(
      'ssh',
      `no SSH session: ${error instanceof Error ? error.message : 'unknown error'}`,
      'make sure the port is served by the Windows OpenSSH server (sshd) and that it completes a handshake',
    );
  const who = `authenticated as '${username}' with ${key.type} key ${key.fingerprint}`;
  if (keyWarnings.length > 0)
    return warn(
      'ssh',
      `${who}, but ${keyWarnings.join('; ')}`,
      'replace the key with Ed25519, ECDSA or RSA of at least 2048 bits (and update the cloud-private-key Secret)',
    );
  return pass('ssh', who);
}
