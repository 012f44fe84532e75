import pLimit from 'p-limit';
import type { CipherAlgorithm } from 'ssh2';
import type { HostKeyStore } from '../host-key-store.js';
import type { HostLogger } from '../host-logger.js';

/** How to reach one Windows host. Times are in milliseconds. */
export interface SshHostOptions {
  readonly host: string;
  readonly port?: number;
  readonly username: string;
  /** RSA, ECDSA or Ed25519, PEM or OpenSSH format. */
  readonly privateKey: string | Buffer;
  readonly hostKeys: HostKeyStore;
  readonly logger?: HostLogger;
  /** Give up connecting after this long (default 10 min, as upstream). */
  readonly connectDeadlineMs?: number;
  /** Authentication failures are retried this long, while user-data may still set up sshd (default 5 min). */
  readonly authRetryMs?: number;
  /** First retry delay, doubled each time up to `retryMaxMs` (defaults 1 s and 30 s). */
  readonly retryInitialMs?: number;
  readonly retryMaxMs?: number;
  /** Per-attempt handshake timeout (default 20 s). */
  readonly readyTimeoutMs?: number;
  /**
   * Attempts a host may take the TCP connection and then not finish the handshake within `readyTimeoutMs`
   * before connecting gives up (default 2): a hung sshd fails in under a minute, not at `connectDeadlineMs`.
   */
  readonly silentHandshakeAttempts?: number;
  /** Keepalive probe interval (default 10 s; 3 missed probes end the connection). */
  readonly keepaliveIntervalMs?: number;
  /**
   * The longest deadline of a request that changes the host, `apply` and `deconfigure` (default 15 min:
   * installing the Containers feature is slow); each gets less, sized to its steps (request-deadline.ts).
   */
  readonly commandTimeoutMs?: number;
  /** An apply's allowance per step that only writes (a file, a variable, a route; default 30 s). */
  readonly applyStepTimeoutMs?: number;
  /**
   * An apply's or deconfigure's allowance per service started or stopped, script run or network removed
   * (default 3 min: the module waits up to 2 min for a service to run).
   */
  readonly serviceStepTimeoutMs?: number;
  /**
   * The slowest an upload may be, in bytes per second: a host's whole upload gets twice `sftpRequestTimeoutMs`
   * plus its bytes at this rate (default 1 MiB/s, a tenth of a slow WAN link).
   */
  readonly uploadMinBytesPerSecond?: number;
  /** Deadline of a request a host answers in seconds: `observe` and `reboot` (default 60 s). */
  readonly quickCommandTimeoutMs?: number;
  /** Deadline for powershell.exe to load the host module and say it is ready (default 60 s). */
  readonly sessionStartTimeoutMs?: number;
  /**
   * Deadline of each SFTP request: opening the channel, stat, mkdir, remove, rename, each write of an
   * upload (default 60 s: a write of one 254 KiB chunk unanswered for a minute is a dead link).
   */
  readonly sftpRequestTimeoutMs?: number;
  /** Channels open at once per host (OpenSSH's MaxSessions is 10; default 4). */
  readonly maxChannels?: number;
  /**
   * SFTP writes in flight per upload (default 8) and their size (default 254 KiB: OpenSSH's sftp-server,
   * Windows' too, takes messages up to 256 KiB, and ssh2 writes up to 256 KiB less 2 KiB of header room
   * to a server whose banner says OpenSSH; fewer, larger writes cost less CPU per byte on both ends).
   */
  readonly sftpConcurrency?: number;
  readonly sftpChunkSize?: number;
  /**
   * Shared by every host of one operator: runs a host's whole upload when a slot is free, so that a few
   * hosts upload at once at full speed instead of all at a fraction of it (default: no limit).
   */
  readonly transfers?: <T>(upload: () => Promise<T>) => Promise<T>;
  /** How long `reboot()` waits for the host to come back (default 15 min). */
  readonly rebootTimeoutMs?: number;
  /**
   * The most bytes read from one command's stdout plus stderr (default 8 MiB; an observe of a busy host is
   * well under 1 MiB). A host that prints more fails the call with HostOutputLimitError.
   */
  readonly maxOutputBytes?: number;
  /** The most bytes read from one host module session, all its requests together (default 64 MiB). */
  readonly maxSessionOutputBytes?: number;
  /**
   * The host module is expected on the host (an earlier join installed it): the first call of a connection
   * runs it without looking for it by SFTP first, so a drift check is one exec and nothing else. A missing
   * or altered module fails that call, which is made again with the module (default false).
   */
  readonly assumeModule?: boolean;
  /**
   * Abandons connecting (between attempts and during one) and every request in flight, once aborted: the
   * operator is stopping, or the work the connection is for is no longer wanted.
   */
  readonly signal?: AbortSignal;
}

export type ResolvedSshOptions = Required<Omit<SshHostOptions, 'logger' | 'signal'>> & {
  readonly logger: HostLogger;
  readonly address: string;
  readonly signal?: AbortSignal;
};

export function resolveSshOptions(o: SshHostOptions, logger: HostLogger): ResolvedSshOptions {
  const port = o.port ?? 22;
  return {
    connectDeadlineMs: 10 * 60_000,
    authRetryMs: 5 * 60_000,
    retryInitialMs: 1000,
    retryMaxMs: 30_000,
    readyTimeoutMs: 20_000,
    silentHandshakeAttempts: 2,
    keepaliveIntervalMs: 10_000,
    commandTimeoutMs: 15 * 60_000,
    quickCommandTimeoutMs: 60_000,
    applyStepTimeoutMs: 30_000,
    serviceStepTimeoutMs: 3 * 60_000,
    uploadMinBytesPerSecond: 1024 * 1024,
    sessionStartTimeoutMs: 60_000,
    sftpRequestTimeoutMs: 60_000,
    maxChannels: 4,
    sftpConcurrency: 8,
    sftpChunkSize: 254 * 1024,
    rebootTimeoutMs: 15 * 60_000,
    transfers: (upload) => upload(),
    maxOutputBytes: 8 * 1024 * 1024,
    maxSessionOutputBytes: 64 * 1024 * 1024,
    assumeModule: false,
    ...o,
    port,
    logger,
    address: port === 22 ? o.host : `${o.host}:${port}`,
  };
}

/**
 * Ciphers offered, most preferred first: chosen for payload throughput. Measured with `pnpm bench ciphers`
 * (ssh2 1.17 with its native binding, AES-NI machine, client and host both in one process): AES-GCM moves
 * about 190-210 MB per CPU second, chacha20-poly1305 about 175, AES-CTR (plus its HMAC) about 135-150.
 * Every one is offered by Windows OpenSSH.
 */
export const SSH_CIPHERS: readonly CipherAlgorithm[] = [
  'aes128-gcm@openssh.com',
  'aes256-gcm@openssh.com',
  'chacha20-poly1305@openssh.com',
  'aes128-ctr',
  'aes256-ctr',
];

/** `transfers` for the hosts of one operator: at most `slots` hosts upload at once, first come first served. */
export function sharedTransfers(slots: number): Required<SshHostOptions>['transfers'] {
  const limit = pLimit(slots);
  return (upload) => limit(upload);
}
