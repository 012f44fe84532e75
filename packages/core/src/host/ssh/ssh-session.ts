import pLimit, { type LimitFunction } from 'p-limit';
import type { Client, ClientChannel, SFTPWrapper } from 'ssh2';
import { HostCommandTimeoutError, HostOutputLimitError, HostUnreachableError } from '../errors.js';
import { sftpUpload, type UploadSource } from './sftp-upload.js';
import type { ResolvedSshOptions } from './ssh-options.js';

export interface ExecResult {
  readonly code: number | undefined;
  readonly stdout: string;
  readonly stderr: string;
}

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

  /** Runs one command in a new channel, writes `stdin` and closes it (Win32-OpenSSH waits for EOF). */
  exec(command: string, stdin: string): Promise<ExecResult> {
    return this.limit(() => this.execNow(command, stdin));
  }

  private execNow(command: string, stdin: string): Promise<ExecResult> {
    this.stats.execs++;
    return new Promise((resolve, reject) => {
      this.client.exec(command, (err, channel) => {
        if (err) {
          // A channel that cannot open because the connection died is unreachability, not a refusal.
          setImmediate(() =>
            reject(this.closed ? new HostUnreachableError(this.o.address, err.message) : err),
          );
          return;
        }
        collect(channel, this.o, resolve, reject);
        channel.end(stdin);
      });
    });
  }

  private sftp(): Promise<SFTPWrapper> {
    this.sftpSession ??= new Promise((resolve, reject) => {
      this.client.sftp((err, sftp) => (err ? reject(err) : resolve(sftp)));
    });
    return this.sftpSession;
  }

  /** Size of a remote file, or undefined when it does not exist. */
  async size(path: string): Promise<number | undefined> {
    const sftp = await this.sftp();
    this.stats.sftpRequests++;
    return new Promise((resolve, reject) => {
      sftp.stat(path, (err, stats) => {
        if (!err) return resolve(stats.size);
        if ((err as { code?: number }).code === 2) return resolve(undefined);
        reject(err);
      });
    });
  }

  /** Removes a file; a missing one is fine. */
  async remove(path: string): Promise<void> {
    const sftp = await this.sftp();
    this.stats.sftpRequests++;
    await new Promise<void>((resolve) => sftp.unlink(path, () => resolve()));
  }

  /** Creates a directory; an existing one is fine (SFTP has no "mkdir -p"). */
  async mkdir(path: string): Promise<void> {
    const sftp = await this.sftp();
    this.stats.sftpRequests++;
    await new Promise<void>((resolve) => sftp.mkdir(path, () => resolve()));
  }

  /** Writes `source` to `tmpPath`, then renames it to `path`, so `path` is never partial. */
  async put(source: UploadSource, tmpPath: string, path: string): Promise<void> {
    const sftp = await this.sftp();
    await this.limit(() => sftpUpload(sftp, source, tmpPath, { o: this.o, stats: this.stats }));
    this.stats.sftpRequests++;
    await new Promise<void>((resolve, reject) => {
      sftp.rename(tmpPath, path, (err) => (err ? reject(err) : resolve()));
    });
  }

  /** Ends the connection (and with it every channel). */
  close(): void {
    this.closed = true;
    this.client.end();
  }
}

/** Output of one command, bounded: past `limit` bytes it stops keeping anything and reports overflow. */
class BoundedOutput {
  readonly out: Buffer[] = [];
  readonly err: Buffer[] = [];
  private bytes = 0;
  constructor(private readonly limit: number) {}

  /** False once the total passed the limit (the chunk is dropped). */
  add(into: Buffer[], chunk: Buffer): boolean {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) return false;
    into.push(chunk);
    return true;
  }
}

function collect(
  channel: ClientChannel,
  o: ResolvedSshOptions,
  resolve: (r: ExecResult) => void,
  reject: (e: Error) => void,
): void {
  const output = new BoundedOutput(o.maxOutputBytes);
  let code: number | undefined;
  let failed: Error | undefined;
  const fail = (e: Error): void => {
    if (failed) return;
    failed = e;
    clearTimeout(timer);
    // Stop reading: pause the streams, close the channel, and keep nothing more of what arrives.
    channel.pause();
    channel.stderr.pause();
    channel.close();
    reject(e);
  };
  const timer = setTimeout(
    () => fail(new HostCommandTimeoutError(o.address, o.commandTimeoutMs)),
    o.commandTimeoutMs,
  );
  const onData = (into: Buffer[]) => (d: Buffer) => {
    if (!failed && !output.add(into, d)) fail(new HostOutputLimitError(o.address, o.maxOutputBytes));
  };
  channel.on('data', onData(output.out));
  channel.stderr.on('data', onData(output.err));
  channel.on('exit', (c: number | null) => {
    code = c ?? undefined;
  });
  channel.on('close', () => {
    clearTimeout(timer);
    if (failed) return;
    // No exit status: the connection went away under the command (a reboot, a dropped link).
    if (code === undefined) {
      return reject(new HostUnreachableError(o.address, 'the connection closed before the command finished'));
    }
    resolve({
      code,
      stdout: Buffer.concat(output.out).toString('utf8'),
      stderr: Buffer.concat(output.err).toString('utf8'),
    });
  });
}
