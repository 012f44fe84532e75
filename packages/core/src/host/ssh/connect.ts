import { setTimeout as sleep } from 'node:timers/promises';
import ssh2, { type Client as SshClient } from 'ssh2';

const { Client } = ssh2;
import { AuthenticationError, HostKeyMismatchError, HostUnreachableError } from '../errors.js';
import { pinningHostVerifier, type HostKeyCheck } from './host-key-verifier.js';
import type { LoadedPrivateKey } from './private-key.js';
import { SHA1_SIGNATURE_REFUSED, SSH_ALGORITHMS, sha2OnlyKey } from './ssh-algorithms.js';
import { SSH_CIPHERS, type ResolvedSshOptions } from './ssh-options.js';

/** What one attempt saw: the host key check, and whether the host took the TCP connection. */
interface AttemptCheck extends HostKeyCheck {
  accepted?: boolean;
}

/** One handshake attempt. Resolves with a ready client or rejects with what went wrong. */
function attempt(o: ResolvedSshOptions, key: LoadedPrivateKey, check: AttemptCheck): Promise<SshClient> {
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
      o.signal?.removeEventListener('abort', abandon);
      // Destroyed, not ended: before the handshake ssh2's end() leaves the socket (and its readyTimeout
      // timer) open with a host that stays silent, which held the process after an abort.
      client.destroy();
      reject(err);
    };
    const abandon = (): void => fail(abandoned(o));
    o.signal?.addEventListener('abort', abandon, { once: true });
    client.once('ready', () => {
      if (settled) {
        // Abandoned (or failed) while the handshake finished: this client is not handed out.
        client.end();
        return;
      }
      settled = true;
      o.signal?.removeEventListener('abort', abandon);
      client.removeListener('error', fail);
      client.on('error', (err) =>
        o.logger.debug('ssh connection error', { address: o.address, err: err.message }),
      );
      resolve(client);
    });
    client.on('error', fail);
    client.once('connect', () => (check.accepted = true));
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

/** Waits `ms`, or less when `signal` aborts first (never rejects). */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return sleep(ms, undefined, { signal }).catch(() => undefined);
}

function abandoned(o: ResolvedSshOptions): HostUnreachableError {
  return new HostUnreachableError(o.address, 'connecting was abandoned: the work it was for was stopped');
}

function silentHandshake(o: ResolvedSshOptions, attempts: number): HostUnreachableError {
  return new HostUnreachableError(
    o.address,
    `the host accepted the connection but did not finish the SSH handshake within ${o.readyTimeoutMs} ms ` +
      `(${attempts} attempt${attempts === 1 ? '' : 's'}; a hung sshd?)`,
  );
}

function isAuthFailure(err: Error): boolean {
  return /authentication methods failed/i.test(err.message);
}

/** 1 when the host took the TCP connection and ssh2's `readyTimeout` passed before the handshake ended. */
function silentAttempt(check: AttemptCheck, err: Error): number {
  return check.accepted === true && (err as { level?: string }).level === 'client-timeout' ? 1 : 0;
}

/**
 * Connects with capped exponential backoff until `connectDeadlineMs`. A host that takes the TCP connection
 * and then does not finish the handshake within `readyTimeoutMs` (a hung sshd) is given up after
 * `silentHandshakeAttempts` such attempts, not at the connect deadline. A changed host key fails at once;
 * an authentication failure is retried only within `authRetryMs` of the first attempt; an abort of
 * `o.signal` ends the attempt under way, or the wait for the next, at once.
 */
export async function connectWithRetry(o: ResolvedSshOptions, key: LoadedPrivateKey): Promise<SshClient> {
  const start = Date.now();
  let delay = o.retryInitialMs;
  let silent = 0;
  for (let tries = 1; ; tries++) {
    if (o.signal?.aborted) throw abandoned(o);
    const check: AttemptCheck = {};
    try {
      return await attempt(o, key, check);
    } catch (caught) {
      if (o.signal?.aborted) throw abandoned(o);
      const err = caught instanceof Error ? caught : new Error(String(caught));
      silent += silentAttempt(check, err);
      const waited = Date.now() - start + delay;
      const final = finalError(o, key, { err, check, tries, waited, silent });
      if (final) throw final;
      o.logger.debug('ssh connect failed; retrying', { address: o.address, err: err.message, delay });
      // An abort ends the wait; the loop's first check then gives up.
      await pause(delay, o.signal);
      delay = Math.min(delay * 2, o.retryMaxMs);
    }
  }
}

/** The error to give up with after a failed attempt, or undefined to try again after the next delay. */
function finalError(
  o: ResolvedSshOptions,
  key: LoadedPrivateKey,
  f: {
    readonly err: Error;
    readonly check: HostKeyCheck;
    readonly tries: number;
    readonly waited: number;
    /** Attempts so far that the host took and then stayed silent in. */
    readonly silent: number;
  },
): Error | undefined {
  const { err, check } = f;
  if (f.silent >= o.silentHandshakeAttempts) return silentHandshake(o, f.silent);
  if (check.mismatch)
    return new HostKeyMismatchError(o.address, check.mismatch.pinned, check.mismatch.presented);
  if (err.message.includes(SHA1_SIGNATURE_REFUSED))
    return new AuthenticationError(o.address, o.username, err.message);
  if (isAuthFailure(err) && f.waited > o.authRetryMs)
    return new AuthenticationError(o.address, o.username, `${err.message} (key ${key.fingerprint})`);
  if (f.waited > o.connectDeadlineMs)
    return new HostUnreachableError(o.address, `${err.message} (after ${f.tries} attempts)`);
  return undefined;
}
