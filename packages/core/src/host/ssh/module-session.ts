import type { ClientChannel } from 'ssh2';
import {
  HostCommandTimeoutError,
  HostFolderRefusedError,
  HostOutputLimitError,
  HostProtocolError,
  HostRequestTimeoutError,
  HostUnreachableError,
  HostWorkAbandonedError,
} from '../errors.js';
import {
  SESSION_FOLDER_REFUSED_MARKER,
  SESSION_MODULE_MISSING_MARKER,
  SESSION_READY_MARKER,
  SESSION_RESULT_PREFIX,
  encodePowerShellCommand,
  hostSessionScript,
  sessionModuleLine,
  type ModuleRef,
} from '../protocol/index.js';
import { readableStderr } from './cli-xml.js';
import type { ResolvedSshOptions } from './ssh-options.js';
import type { SshSession } from './ssh-session.js';

interface Pending {
  readonly resolve: (json: string) => void;
  readonly reject: (err: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/** How the session starts: the module this operator ships, and whether it travels on stdin (first contact). */
export interface ModuleSessionStart {
  readonly module: ModuleRef & { readonly bytes: Buffer };
  readonly install: boolean;
}

/**
 * One powershell.exe on the host, running the host module, answering requests one at a time (ADR 0026).
 * Requests are serialised, each under its own deadline; the start (the module's ready line) has
 * `sessionStartTimeoutMs`. Output is bounded per request (`maxOutputBytes`, stdout and stderr, whatever
 * the shape of the lines) and per session (`maxSessionOutputBytes`). An abort of the work's signal ends the
 * session at once. A session that ends (the host rebooted, the link dropped, the module check failed, a
 * deadline or a bound passed) fails what is pending and every later request.
 */
export class ModuleSession {
  /** Resolves once the module is loaded (and, on first contact, the operator's folders are protected). */
  readonly ready: Promise<void>;
  private channel: ClientChannel | undefined;
  private pending: Pending | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private partial: Buffer[] = [];
  /** Bytes read since the current request was sent (or since the start, before the first). */
  private requestBytes = 0;
  private sessionBytes = 0;
  private stderrText = '';
  private lastOther = '';
  private missing = false;
  private code: number | undefined;
  private ended: Error | undefined;
  private markReady: () => void = () => undefined;
  private markClosed: () => void = () => undefined;
  private readonly closedPromise = new Promise<void>((resolve) => (this.markClosed = resolve));
  private failReady: (err: Error) => void = () => undefined;

  constructor(
    ssh: SshSession,
    private readonly o: ResolvedSshOptions,
    start: ModuleSessionStart,
  ) {
    this.ready = new Promise<void>((resolve, reject) => {
      this.markReady = resolve;
      this.failReady = reject;
    });
    // Awaited by requests; a session nobody uses must not leave an unhandled rejection behind.
    this.ready.catch(() => undefined);
    this.guardStart();
    ssh.open(encodePowerShellCommand(hostSessionScript(start.module, start.install))).then(
      (channel) => this.attach(channel, start),
      (err: unknown) => this.end(err instanceof Error ? err : new Error(String(err))),
    );
  }

  /** What the host printed on stderr (bounded): where a failed module check says which file it read. */
  get stderr(): string {
    return this.stderrText;
  }

  /** The host said (on stdout) that the module is not at its path, or is not this operator's. */
  get moduleMissing(): boolean {
    return this.missing;
  }

  get isClosed(): boolean {
    return this.ended !== undefined;
  }

  /**
   * Sends one request (a JSON line) once the previous one is answered; resolves with the result's JSON.
   * `timeoutMs` (default `commandTimeoutMs`) counts from when it is sent; `what` names it in the error.
   */
  request(json: string, timeoutMs = this.o.commandTimeoutMs, what = 'command'): Promise<string> {
    const next = this.queue.then(() => this.send(json, timeoutMs, what));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Closes stdin: the host's loop ends and powershell.exe exits. */
  close(): void {
    if (this.ended) return;
    this.end(new HostUnreachableError(this.o.address, 'the host module session was closed'));
    this.channel?.end();
  }

  private async send(json: string, timeoutMs: number, what: string): Promise<string> {
    await this.ready;
    if (this.ended) throw this.ended;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => this.fail(new HostCommandTimeoutError(this.o.address, timeoutMs, what)),
        timeoutMs,
      );
      this.pending = { resolve, reject, timer };
      this.requestBytes = 0;
      this.channel?.write(`${json}\n`);
    });
  }

  /** The start's deadline and the work's abort, for the session's whole life. */
  private guardStart(): void {
    const { address, sessionStartTimeoutMs, signal } = this.o;
    const timer = setTimeout(
      () =>
        this.fail(new HostRequestTimeoutError(address, 'starting the host module', sessionStartTimeoutMs)),
      sessionStartTimeoutMs,
    );
    const abandon = (): void => this.fail(new HostWorkAbandonedError(address, 'the host module session'));
    if (signal?.aborted) return queueMicrotask(abandon);
    signal?.addEventListener('abort', abandon, { once: true });
    const settled = (): void => {
      clearTimeout(timer);
    };
    this.ready.then(settled, settled);
    void this.closedPromise.then(() => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abandon);
    });
  }

  /** Counts what the host printed; past either bound the session fails (and stops reading). */
  private overBound(bytes: number): boolean {
    this.requestBytes += bytes;
    this.sessionBytes += bytes;
    if (this.requestBytes > this.o.maxOutputBytes) {
      this.fail(new HostOutputLimitError(this.o.address, this.o.maxOutputBytes));
      return true;
    }
    if (this.sessionBytes > this.o.maxSessionOutputBytes) {
      this.fail(new HostOutputLimitError(this.o.address, this.o.maxSessionOutputBytes, 'one session'));
      return true;
    }
    return false;
  }

  private attach(channel: ClientChannel, start: ModuleSessionStart): void {
    this.channel = channel;
    if (this.ended) {
      channel.close();
      return;
    }
    channel.on('data', (d: Buffer) => this.onStdout(d));
    channel.stderr.on('data', (d: Buffer) => {
      if (this.ended || this.overBound(d.length)) return;
      // Kept for the error message only: the first 64 KiB are plenty.
      if (this.stderrText.length < 64 * 1024) this.stderrText += d.toString('utf8');
    });
    channel.on('exit', (c: number | null) => {
      this.code = c ?? undefined;
    });
    channel.on('close', () => this.end(this.closedError()));
    if (start.install) channel.write(sessionModuleLine(start.module.bytes));
  }

  /** Splits stdout into lines without copying what came before; output past a bound fails the session. */
  private onStdout(d: Buffer): void {
    if (this.ended || this.overBound(d.length)) return;
    let start = 0;
    for (let cut = d.indexOf(10); cut >= 0; cut = d.indexOf(10, start)) {
      const line = Buffer.concat([...this.partial, d.subarray(start, cut)]).toString('utf8');
      this.partial = [];
      start = cut + 1;
      this.onLine(line.replace(/\r$/, ''));
      if (this.ended) return;
    }
    if (start < d.length) this.partial.push(d.subarray(start));
  }

  /** Stops reading (what still arrives is dropped) and closes the channel: powershell.exe ends with it. */
  private fail(err: Error): void {
    this.end(err);
    this.partial = [];
    this.channel?.pause();
    this.channel?.stderr.pause();
    this.channel?.close();
  }

  private onLine(line: string): void {
    if (line === SESSION_READY_MARKER) return this.markReady();
    if (line.startsWith(SESSION_MODULE_MISSING_MARKER)) this.missing = true;
    if (line.startsWith(`${SESSION_FOLDER_REFUSED_MARKER} `)) {
      const refusal = line.slice(SESSION_FOLDER_REFUSED_MARKER.length + 1);
      return this.fail(new HostFolderRefusedError(this.o.address, refusal));
    }
    if (!line.startsWith(SESSION_RESULT_PREFIX)) {
      // Output of something the request ran that wrote straight to the console: not a result.
      this.lastOther = line;
      return;
    }
    const p = this.pending;
    this.pending = undefined;
    if (!p) return;
    clearTimeout(p.timer);
    p.resolve(line.slice(SESSION_RESULT_PREFIX.length));
  }

  /** Why the channel closed: no exit status means the connection went away under it (a reboot, a drop). */
  private closedError(): Error {
    if (this.code === undefined)
      return new HostUnreachableError(this.o.address, 'the connection closed before the command finished');
    return new HostProtocolError(
      this.o.address,
      `exit ${String(this.code)}; output '${this.lastOther.slice(0, 200)}'; ${readableStderr(this.stderrText).slice(0, 500)}`,
    );
  }

  private end(err: Error): void {
    if (this.ended) return;
    this.ended = err;
    this.markClosed();
    this.failReady(err);
    const p = this.pending;
    this.pending = undefined;
    if (p) {
      clearTimeout(p.timer);
      p.reject(err);
    }
  }
}
