import { stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Plan } from '../../converge/plan.js';
import {
  HostOperationError,
  HostProtocolError,
  HostUploadError,
  InvalidHostRequestError,
} from '../errors.js';
import { loadHostModule } from '../host-module.js';
import { silentHostLogger } from '../host-logger.js';
import {
  HOST_PROTOCOL_VERSION,
  encodePowerShellCommand,
  hostInstallInvocationScript,
  hostInvocationScript,
  hostRequestSchema,
  installInvocationInput,
  hostResultSchema,
  stagedArchivePathFor,
  stagedPathFor,
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
import { connectWithRetry } from './connect.js';
import { prepareHost } from './prepare-host.js';
import { loadPrivateKey, type LoadedPrivateKey } from './private-key.js';
import { SshSession, type SessionStats } from './ssh-session.js';
import { resolveSshOptions, type ResolvedSshOptions, type SshHostOptions } from './ssh-options.js';

/** Counters across every connection this host made; `pnpm bench host` reports them. */
export interface SshHostStats {
  connects: number;
  powershellStarts: number;
  /** Calls that carried the host module on stdin (first contact, or a module that went missing). */
  moduleInstalls: number;
  sftpRequests: number;
  bytesSent: number;
}

/** `WindowsHost` over SSH (ssh2): one host module call per operation, payload files by SFTP. */
export class SshWindowsHost implements WindowsHost {
  private readonly o: ResolvedSshOptions;
  private readonly key: LoadedPrivateKey;
  private session: Promise<SshSession> | undefined;
  private moduleReady: Promise<boolean> | undefined;
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
   * For uploads before any call installed the module: the working area prepared and the module put by
   * SFTP (one PowerShell start), so the staging folder exists and is protected.
   */
  private async ensurePrepared(session: SshSession): Promise<void> {
    if (await this.moduleOnHost(session, false)) return;
    const module = await loadHostModule();
    await prepareHost(session, this.address);
    // SFTP rename does not replace: a damaged or tampered copy goes first.
    if ((await session.size(module.remotePath)) !== undefined) await session.remove(module.remotePath);
    await session.put(module.bytes, `${module.remotePath}.part`, module.remotePath);
    this.moduleReady = Promise.resolve(true);
  }

  /**
   * One PowerShell start: the request goes on stdin, one JSON result comes back on stdout. A host without
   * the module gets it in the same start (after the request's folders are protected; ADR 0022).
   */
  private async call(request: HostRequest, retried = false): Promise<HostResult> {
    const checked = hostRequestSchema.safeParse(request);
    if (!checked.success) throw new InvalidHostRequestError(this.address, checked.error.message);
    const session = await this.connection();
    const installed = await this.moduleOnHost(session, retried);
    const { code, stdout, stderr, modulePath } = await this.exec(
      session,
      JSON.stringify(checked.data),
      installed,
    );
    const line = stdout.trim().split(/\r?\n/).pop() ?? '';
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      if (!retried && stderr.includes(modulePath)) {
        // The module vanished or was altered since this connection checked: send it again, once.
        this.moduleReady = undefined;
        return this.call(request, true);
      }
      throw new HostProtocolError(
        this.address,
        `exit ${String(code)}; output '${line.slice(0, 200)}'; ${stderr.slice(0, 500)}`,
      );
    }
    if (!installed) this.moduleReady = Promise.resolve(true);
    const parsed = hostResultSchema.safeParse(json);
    if (!parsed.success) throw new HostProtocolError(this.address, parsed.error.message);
    return parsed.data;
  }

  /** The module's invocation, or (not installed) the first-contact one with the module before the request. */
  private async exec(
    session: SshSession,
    json: string,
    installed: boolean,
  ): Promise<{ code: number | undefined; stdout: string; stderr: string; modulePath: string }> {
    const module = await loadHostModule();
    const ref = { modulePath: module.remotePath, sha256: module.sha256 };
    if (!installed) this.installs++;
    const out = await session.exec(
      encodePowerShellCommand(installed ? hostInvocationScript(ref) : hostInstallInvocationScript(ref)),
      installed ? json : installInvocationInput(module.bytes, json),
    );
    return { ...out, modulePath: ref.modulePath };
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
    for (const file of new Map(files.map((f) => [f.sha256, f])).values()) {
      const packed = !Buffer.isBuffer(file.source) && file.source.format === 'tar.gz';
      // A compressed file is staged as it is (`<sha>.tar.gz`); apply extracts it and checks the hash.
      const target = packed ? stagedArchivePathFor(file.sha256) : stagedPathFor(file.sha256);
      const size = Buffer.isBuffer(file.source)
        ? file.source.length
        : (await stat(file.source.localPath)).size;
      // Staged files arrive by rename only when complete, and apply re-hashes them; the size is a cheap guard.
      const present = await session.size(target);
      if (present === size) {
        skipped.push(file.sha256);
        continue;
      }
      // A staged file of the wrong size is damaged; SFTP rename will not replace it, so remove it.
      if (present !== undefined) await session.remove(target);
      try {
        await session.put(file.source, `${target}.part`, target);
      } catch (err) {
        throw new HostUploadError(
          this.address,
          `${file.sha256}: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      uploaded.push(file.sha256);
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

  async deconfigure(options: DeconfigureOptions): Promise<ChangeOutcome> {
    return this.change(await this.call({ v: HOST_PROTOCOL_VERSION, op: 'deconfigure', ...options }));
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
   * and for a connection to a host with a new boot time.
   */
  async reboot(): Promise<void> {
    const result = await this.call({ v: HOST_PROTOCOL_VERSION, op: 'reboot' });
    if (result.op !== 'reboot' || !('lastBootTime' in result)) throw this.failure('reboot', result);
    const deadline = Date.now() + this.o.rebootTimeoutMs;
    const empty: ObserveQuery = { directories: [], files: [], services: [], envVars: [], firewallRules: [] };
    while (Date.now() < deadline) {
      try {
        const state = await this.observe(empty);
        if (state.lastBootTime !== result.lastBootTime) return;
      } catch (err) {
        this.o.logger.debug('host not back yet', { address: this.address, err: String(err) });
      }
      await sleep(Math.min(1000, this.o.retryInitialMs));
    }
    throw new HostOperationError(
      this.address,
      'reboot',
      `no new boot time within ${this.o.rebootTimeoutMs} ms`,
    );
  }

  async close(): Promise<void> {
    const pending = this.session;
    this.session = undefined;
    this.moduleReady = undefined;
    const session = await pending?.catch(() => undefined);
    session?.close();
  }
}
