import pLimit, { type LimitFunction } from 'p-limit';
import type { Client, ClientChannel, SFTPWrapper } from 'ssh2';
import { HostRequestTimeoutError, HostUnreachableError, HostWorkAbandonedError } from '../errors.js';
import type { UploadSource } from './chunk-reader.js';
import { withDeadline } from './host-deadline.js';
import { sftpUpload } from './sftp-upload.js';
import type { ResolvedSshOptions } from './ssh-options.js';

export interface SessionStats {
  execs: number;
  sftpRequests: number;
  bytesSent: number;
}

/** One live SSH connection: channels limited per host, every channel closed, one SFTP session reused. */
export class SshSession {
  private readonly limit: LimitFunction;
  private sftpSession: Promise<SFTPWrapper> | undefined;
  private closed = false;
  constructor(
    private readonly client: Client,
    private readonly o: ResolvedSshOptions,
    /** Counters for benchmarks (commands run, SFTP requests, bytes written), shared across reconnects. */
    readonly stats: SessionStats,
  ) {
    this.limit = pLimit(o.maxChannels);
    client.once('close', () => {
      this.closed = true;
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Opens a long-lived exec channel (the host module session). It is not counted against `maxChannels`,
   * which bounds the short ones: one session, the SFTP channel and `maxChannels` more stay within
   * OpenSSH's MaxSessions of 10.
   */
  open(command: string): Promise<ClientChannel> {
    this.stats.execs++;
    return new Promise((resolve, reject) => {
      this.client.exec(command, (err, channel) => {
        if (!err) return resolve(channel);
        setImmediate(() => reject(this.closed ? new HostUnreachableError(this.o.address, err.message) : err));
      });
    });
  }

  /**
   * One SFTP request under its deadline (`sftpRequestTimeoutMs`) and the work's abort: a request the host
   * never answers, or abandoned, closes the connection (the SFTP channel may be wedged; the next call
   * connects again) and rejects at once.
   */
  readonly timed = <T>(what: string, work: Promise<T>): Promise<T> =>
    withDeadline(work, {
      ms: this.o.sftpRequestTimeoutMs,
      signal: this.o.signal,
      timeout: () => new HostRequestTimeoutError(this.o.address, `SFTP ${what}`, this.o.sftpRequestTimeoutMs),
      abandoned: () => new HostWorkAbandonedError(this.o.address, `SFTP ${what}`),
      giveUp: () => this.close(),
    });

  private sftp(): Promise<SFTPWrapper> {
    this.sftpSession ??= this.timed(
      'channel open',
      new Promise((resolve, reject) => {
        this.client.sftp((err, sftp) => (err ? reject(err) : resolve(sftp)));
      }),
    );
    return this.sftpSession;
  }

  /** Size of a remote file, or undefined when it does not exist. */
  async size(path: string): Promise<number | undefined> {
    const sftp = await this.sftp();
    this.stats.sftpRequests++;
    return this.timed(
      `stat of ${path}`,
      new Promise((resolve, reject) => {
        sftp.stat(path, (err, stats) => {
          if (!err) return resolve(stats.size);
          if ((err as { code?: number }).code === 2) return resolve(undefined);
          reject(err);
        });
      }),
    );
  }

  /** Removes a file; a missing one is fine. */
  async remove(path: string): Promise<void> {
    const sftp = await this.sftp();
    this.stats.sftpRequests++;
    await this.timed(`remove of ${path}`, new Promise<void>((resolve) => sftp.unlink(path, () => resolve())));
  }

  /** Creates a directory; an existing one is fine (SFTP has no "mkdir -p"). */
  async mkdir(path: string): Promise<void> {
    const sftp = await this.sftp();
    this.stats.sftpRequests++;
    await this.timed(`mkdir of ${path}`, new Promise<void>((resolve) => sftp.mkdir(path, () => resolve())));
  }

  /** Writes `source` to `tmpPath`, then renames it to `path`, so `path` is never partial. */
  async put(source: UploadSource, tmpPath: string, path: string): Promise<void> {
    const sftp = await this.sftp();
    const ctx = { o: this.o, stats: this.stats, timed: this.timed };
    await this.limit(() => sftpUpload(sftp, source, tmpPath, ctx));
    this.stats.sftpRequests++;
    await this.timed(
      `rename of ${tmpPath}`,
      new Promise<void>((resolve, reject) => {
        sftp.rename(tmpPath, path, (err) => (err ? reject(err) : resolve()));
      }),
    );
  }

  /** Ends the connection (and with it every channel). */
  close(): void {
    this.closed = true;
    this.client.end();
  }
}
