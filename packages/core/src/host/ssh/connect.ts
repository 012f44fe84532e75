import { setTimeout as sleep } from 'node:timers/promises';
import ssh2, { type Client as SshClient } from 'ssh2';

const { Client } = ssh2;
import { AuthenticationError, HostKeyMismatchError, HostUnreachableError } from '../errors.js';
import { pinningHostVerifier, type HostKeyCheck } from './host-key-verifier.js';
import type { LoadedPrivateKey } from './private-key.js';
import { SHA1_SIGNATURE_REFUSED, SSH_ALGORITHMS, sha2OnlyKey } from './ssh-algorithms.js';
import { SSH_CIPHERS, type ResolvedSshOptions } from './ssh-options.js';

/** One handshake attempt. Resolves with a ready client or rejects with what went wrong. */
function attempt(o: ResolvedSshOptions, key: LoadedPrivateKey, check: HostKeyCheck): Promise<SshClient> {
  let offered = false;
  const first = (): boolean => !offered && (offered = true);
  return new Promise((resolve, reject) => {
    const client = new Client();
    let settled = false;
    // `on`, not `once`: a failed attempt can emit a second error (e.g. ECONNRESET after an auth failure),
    // and an unhandled 'error' event would crash the process.
    const fail = (err: Error): void => {
      if (settled) return;
      settled = true;
      client.end();
      reject(err);
    };
    client.once('ready', () => {
      settled = true;
      client.removeListener('error', fail);
      client.on('error', (err) =>
        o.logger.debug('ssh connection error', { address: o.address, err: err.message }),
      );
      resolve(client);
    });
    client.on('error', fail);
    client.connect({
      host: o.host,
      port: o.port,
      username: o.username,
      // Public key only (no password, keyboard-interactive or agent), one attempt, never an SHA-1 signature.
      // `false` ends authentication ("All configured authentication methods failed"); @types/ssh2 omits it.
      authHandler: (_methods, _partial, next) =>
        next(
          first()
            ? { type: 'publickey', username: o.username, key: sha2OnlyKey(key.key) }
            : (false as unknown as 'none'),
        ),
      algorithms: {
        kex: [...SSH_ALGORITHMS.kex],
        serverHostKey: [...SSH_ALGORITHMS.serverHostKey],
        hmac: [...SSH_ALGORITHMS.hmac],
        cipher: [...SSH_CIPHERS],
      },
      hostVerifier: pinningHostVerifier(o.hostKeys, o.address, check),
      keepaliveInterval: o.keepaliveIntervalMs,
      keepaliveCountMax: 3,
      readyTimeout: o.readyTimeoutMs,
    });
    // Nagle's algorithm costs ~88 ms per exec round trip on this protocol (simulated-world notes §C.2).
    client.setNoDelay(true);
  });
}

function isAuthFailure(err: Error): boolean {
  return /authentication methods failed/i.test(err.message);
}

/**
 * Connects with capped exponential backoff until `connectDeadlineMs`. A changed host key fails at once;
 * an authentication failure is retried only within `authRetryMs` of the first attempt.
 */
export async function connectWithRetry(o: ResolvedSshOptions, key: LoadedPrivateKey): Promise<SshClient> {
  const start = Date.now();
  let delay = o.retryInitialMs;
  for (let tries = 1; ; tries++) {
    const check: HostKeyCheck = {};
    try {
      return await attempt(o, key, check);
    } catch (caught) {
      const err = caught instanceof Error ? caught : new Error(String(caught));
      if (check.mismatch)
        throw new HostKeyMismatchError(o.address, check.mismatch.pinned, check.mismatch.presented);
      if (err.message.includes(SHA1_SIGNATURE_REFUSED)) {
        throw new AuthenticationError(o.address, o.username, err.message);
      }
      const elapsed = Date.now() - start;
      if (isAuthFailure(err) && elapsed + delay > o.authRetryMs) {
        throw new AuthenticationError(o.address, o.username, `${err.message} (key ${key.fingerprint})`);
      }
      if (elapsed + delay > o.connectDeadlineMs) {
        throw new HostUnreachableError(o.address, `${err.message} (after ${tries} attempts)`);
      }
      o.logger.debug('ssh connect failed; retrying', { address: o.address, err: err.message, delay });
      await sleep(delay);
      delay = Math.min(delay * 2, o.retryMaxMs);
    }
  }
}
