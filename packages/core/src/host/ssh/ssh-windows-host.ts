import type { Plan } from '../protocol/index.js';
import { HostOperationError, HostProtocolError, InvalidHostRequestError } from '../errors.js';
import { loadHostModule } from '../host-module.js';
import { silentHostLogger } from '../host-logger.js';
import {
  HOST_PROTOCOL_VERSION,
  hostRequestSchema,
  hostResultSchema,
  type HostRequest,
  type HostResult,
  type HostState,
} from '../protocol/index.js';
import type {
  ApplyOptions,
  ChangeOutcome,
  DeconfigureOptions,
  ObserveQuery,
  UploadFile,
  UploadReport,
  WindowsHost,
} from '../windows-host.js';
import { connectWithRetry, pause } from './connect.js';
import { deconfigureInRounds } from './deconfigure-rounds.js';
import { ModuleSession } from './module-session.js';
import { stageFile } from './stage-file.js';
import { loadPrivateKey, type LoadedPrivateKey } from './private-key.js';
import type { SshHostStats } from './ssh-host-stats.js';
import { SshSession, type SessionStats } from './ssh-session.js';
import { requestDeadline } from './request-deadline.js';
import { resolveSshOptions, type ResolvedSshOptions, type SshHostOptions } from './ssh-options.js';
import { timedUpload } from './timed-upload.js';

/** Ends a session that started (one that never started needs nothing). */
function closeSession(session: Promise<ModuleSession> | undefined): void {
  session?.then(
    (s) => s.close(),
    () => undefined,
  );
}

/**
 * `WindowsHost` over SSH (ssh2): one powershell.exe per connection runs the host module and answers every
 * operation (ADR 0026); payload files by SFTP.
 */
export class SshWindowsHost implements WindowsHost {
  private readonly o: ResolvedSshOptions;
  private readonly key: LoadedPrivateKey;
  private session: Promise<SshSession> | undefined;
  private moduleReady: Promise<boolean> | undefined;
  /** The host module session of the current connection. */
  private module: { readonly ssh: SshSession; readonly session: Promise<ModuleSession> } | undefined;
  private readonly finished: SessionStats = { execs: 0, sftpRequests: 0, bytesSent: 0 };
  private connects = 0;
  private installs = 0;

  constructor(options: SshHostOptions) {
    const logger = options.logger ?? silentHostLogger;
    this.o = resolveSshOptions(options, logger);
    this.key = loadPrivateKey(options.privateKey, logger);
  }

  get address(): string {
    return this.o.address;
  }

  get stats(): SshHostStats {
    const { execs, sftpRequests, bytesSent } = this.finished;
    // Every exec is one powershell.exe start: the adapter runs nothing else.
    return {
      connects: this.connects,
      powershellStarts: execs,
      moduleInstalls: this.installs,
      sftpRequests,
      bytesSent,
    };
  }

  /** The current connection, or a new one when there is none or it dropped. */
  private async connection(): Promise<SshSession> {
    if (this.session) {
      const current = await this.session.catch(() => undefined);
      if (current && !current.isClosed) return current;
      this.session = undefined;
      this.moduleReady = undefined;
    }
    this.session = connectWithRetry(this.o, this.key).then((client) => {
      this.connects++;
      return new SshSession(client, this.o, this.finished);
    });
    this.session.catch(() => (this.session = undefined));
    return this.session;
  }

  /**
   * Whether the module is on the host (this connection looked once): a file of its size at its hash-named
   * path, a cheap guess, since every call checks the module's SHA-256 on the host before using it. With
   * `assumeModule` (a host an earlier join installed it on) nothing is looked at: a missing or altered
   * module fails the call, which is then made again with the module.
   */
  private moduleOnHost(session: SshSession, replace: boolean): Promise<boolean> {
    this.moduleReady ??= (async () => {
      if (replace) return false;
      if (this.o.assumeModule) return true;
      const module = await loadHostModule();
      return (await session.size(module.remotePath)) === module.bytes.length;
    })();
    this.moduleReady.catch(() => (this.moduleReady = undefined));
    return this.moduleReady;
  }

  /**
   * The session of this connection, started when there is none (or it ended): with the module on stdin when
   * the host does not hold it yet (`replace`: it was found missing or altered). Concurrent callers share it.
   */
  private async moduleSession(ssh: SshSession, replace: boolean): Promise<ModuleSession> {
    const current = this.module;
    if (current && current.ssh === ssh && !replace) {
      const session = await current.session.catch(() => undefined);
      if (session && !session.isClosed) return session;
      if (this.module !== current) return this.moduleSession(ssh, replace);
    }
    const starting = this.startModuleSession(ssh, replace);
    this.module = { ssh, session: starting };
    starting.catch(() => {
      if (this.module?.session === starting) this.module = undefined;
    });
    closeSession(current?.session);
    return starting;
  }

  private async startModuleSession(ssh: SshSession, replace: boolean): Promise<ModuleSession> {
    const install = !(await this.moduleOnHost(ssh, replace));
    const module = await loadHostModule();
    if (install) this.installs++;
    const session = new ModuleSession(ssh, this.o, {
      module: { modulePath: module.remotePath, sha256: module.sha256, bytes: module.bytes },
      install,
    });
    if (install) {
      // Once it is running, the module is on the host for every later session of this connection.
      session.ready.then(
        () => (this.moduleReady = Promise.resolve(true)),
        () => undefined,
      );
    }
    return session;
  }

  /** Before uploads to a host without the module: a first-contact session protects the folders first. */
  private async ensurePrepared(ssh: SshSession): Promise<void> {
    if (await this.moduleOnHost(ssh, false)) return;
    await (
      await this.moduleSession(ssh, false)
    ).ready;
  }

  /**
   * One request to the host module session: the request as one JSON line, one JSON result back. A module
   * that vanished or was altered since this connection looked is sent again, once.
   */
  private async call(request: HostRequest, retried = false): Promise<HostResult> {
    const checked = hostRequestSchema.safeParse(request);
    if (!checked.success) throw new InvalidHostRequestError(this.address, checked.error.message);
    const ssh = await this.connection();
    const session = await this.moduleSession(ssh, retried);
    let line: string;
    try {
      const { data } = checked;
      line = await session.request(
        JSON.stringify(data),
        requestDeadline(this.o, data),
        `the ${data.op} request`,
      );
    } catch (err) {
      // The session's own stdout line, not stderr: that is CLIXML and may wrap the path.
      if (!retried && session.moduleMissing) {
        this.moduleReady = undefined;
        return this.call(request, true);
      }
      throw err;
    }
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new HostProtocolError(this.address, `result is not JSON: '${line.slice(0, 200)}'`);
    }
    const parsed = hostResultSchema.safeParse(json);
    if (!parsed.success) throw new HostProtocolError(this.address, parsed.error.message);
    return parsed.data;
  }

  async observe(query: ObserveQuery): Promise<HostState> {
    const result = await this.call({ v: HOST_PROTOCOL_VERSION, op: 'observe', ...query });
    if (result.op === 'observe' && 'state' in result) return result.state;
    throw this.failure('observe', result);
  }

  async upload(files: readonly UploadFile[]): Promise<UploadReport> {
    const session = await this.connection();
    // The staging folder exists once the module is on the host.
    await this.ensurePrepared(session);
    const before = this.finished.bytesSent;
    const uploaded: string[] = [];
    const skipped: string[] = [];
    const unique = [...new Map(files.map((f) => [f.sha256, f])).values()];
    // One slot of the operator's uploads for the host's whole upload (nothing to send: no slot).
    if (unique.length > 0) {
      await this.o.transfers(() =>
        timedUpload(session, this.o, unique, async () => {
          for (const file of unique) {
            if (await stageFile(session, file, this.address)) uploaded.push(file.sha256);
            else skipped.push(file.sha256);
          }
        }),
      );
    }
    return { uploaded, skipped, bytesSent: this.finished.bytesSent - before };
  }

  async apply(plan: Plan, options: ApplyOptions = {}): Promise<ChangeOutcome> {
    if (plan.steps.length === 0) return { done: [], rebootRequired: false };
    const reboot = options.rebootWhenRequired ? { rebootWhenRequired: true } : {};
    const outcome = this.change(
      await this.call({ v: HOST_PROTOCOL_VERSION, op: 'apply', steps: [...plan.steps], ...reboot }),
    );
    // The host goes down in a moment: the next call reconnects (connection() sees the closed session).
    if (outcome.rebootScheduled) await this.close();
    return outcome;
  }

  /** Removing an HNS network can drop the connection: one network per call, reconnecting after each. */
  async deconfigure(options: DeconfigureOptions): Promise<ChangeOutcome> {
    return deconfigureInRounds({
      address: this.address,
      rounds: options.hnsNetworks.length + 1,
      call: async () => {
        const result = await this.call({ v: HOST_PROTOCOL_VERSION, op: 'deconfigure', ...options });
        return { ...this.change(result), reconnect: 'reconnect' in result && result.reconnect === true };
      },
      reconnect: () => this.close(),
      stopped: () => this.o.signal?.aborted === true,
    });
  }

  private change(result: HostResult): ChangeOutcome {
    if ('done' in result && result.ok) {
      const { done, rebootRequired } = result;
      return { done, rebootRequired, ...(result.rebootScheduled ? { rebootScheduled: true } : {}) };
    }
    throw this.failure(result.op, result);
  }

  private failure(op: string, result: HostResult): HostOperationError {
    const error = 'error' in result ? result.error : undefined;
    return new HostOperationError(this.address, op, error?.message ?? 'unexpected result', error?.step);
  }

  /**
   * Asks the module to restart the host, then waits for the connection to drop (expected, not an error)
   * and for a connection to a host with a new boot id; an abort of `signal` ends the wait.
   */
  async reboot(): Promise<void> {
    const result = await this.call({ v: HOST_PROTOCOL_VERSION, op: 'reboot' });
    if (result.op !== 'reboot' || !('bootId' in result)) throw this.failure('reboot', result);
    // The host is going down: the next look at it starts a new powershell.exe after the restart.
    closeSession(this.module?.session);
    this.module = undefined;
    const deadline = Date.now() + this.o.rebootTimeoutMs;
    const empty: ObserveQuery = { directories: [], files: [], services: [], envVars: [], firewallRules: [] };
    while (Date.now() < deadline) {
      try {
        const state = await this.observe(empty);
        // The boot id, not the boot time: that one moves between reads without a reboot (ADR 0032).
        if (state.bootId !== result.bootId) return;
      } catch (err) {
        // Stopping: connecting was abandoned, so waiting longer cannot see the host come back.
        if (this.o.signal?.aborted) throw err;
        this.o.logger.debug('host not back yet', { address: this.address, err: String(err) });
      }
      await pause(Math.min(1000, this.o.retryInitialMs), this.o.signal);
    }
    throw new HostOperationError(
      this.address,
      'reboot',
      `no new boot id within ${this.o.rebootTimeoutMs} ms`,
    );
  }

  async close(): Promise<void> {
    const pending = this.session;
    this.session = undefined;
    this.moduleReady = undefined;
    closeSession(this.module?.session);
    this.module = undefined;
    const session = await pending?.catch(() => undefined);
    session?.close();
  }
}
