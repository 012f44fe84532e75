import { InMemoryHostKeyStore } from '../host-key-store.js';
import type { SshHostOptions } from './ssh-options.js';

/** Where a one-shot command (`wmco preflight`, `wmco hostcheck`) connects, and how long it may wait. */
export interface OneShotTarget {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly privateKey: string | Buffer;
  readonly timeoutMs: number;
}

/**
 * SSH options for a command that connects once and exits: nothing is pinned (the host key seen is
 * forgotten when it exits), no retry of a refused key, connecting bounded by `timeoutMs`, and each
 * command given at least `minCommandTimeoutMs`.
 */
export function oneShotSshOptions(t: OneShotTarget, minCommandTimeoutMs: number): SshHostOptions {
  return {
    host: t.host,
    port: t.port,
    username: t.username,
    privateKey: t.privateKey,
    hostKeys: new InMemoryHostKeyStore(),
    connectDeadlineMs: t.timeoutMs,
    readyTimeoutMs: t.timeoutMs,
    authRetryMs: 0,
    retryInitialMs: Math.min(500, t.timeoutMs),
    commandTimeoutMs: Math.max(minCommandTimeoutMs, t.timeoutMs),
  };
}
