import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceRunState, ServiceStartType } from '@wmco/core';
import { splitCommandLine } from './command-line.js';
import type { ServiceBehaviourRegistry, ServiceRun } from './service-behaviour.js';
import type { WindowsModel } from './windows-model.js';
import { ServiceDeletion } from './service-deletion.js';

/** ERROR_PROCESS_ABORTED: what Win32_Service.ExitCode shows for a process that ended on its own. */
const PROCESS_ABORTED = 1067;

export interface ServiceRecord {
  name: string;
  commandLine: string;
  startType: ServiceStartType;
  dependencies: string[];
  description: string;
  state: ServiceRunState;
  /** The `Environment` registry value of the service (REG_MULTI_SZ `NAME=value` lines); absent: none. */
  environment?: string[];
  /** The environment the running process got: `environment` as it was at its last start. */
  runEnvironment?: string[];
  run?: ServiceRun;
  abort?: AbortController;
  /** `Win32_Service.ExitCode` of the last run: 0, or the code its process ended with (1067 by default). */
  exitCode?: number;
}

/** One line of the SCM's history, for tests: what happened to which service, in order. */
export interface ScmEvent {
  readonly action: 'create' | 'configure' | 'start' | 'stop' | 'delete' | 'fail';
  readonly name: string;
  /** When it happened (`performance.now()`); for `start` and `fail`, when the service reached the state. */
  readonly at: number;
  /** `start` and `fail`: when the service went START_PENDING (its start cost runs from there). */
  readonly pendingSince?: number;
}

/** The service control manager: states, start types, dependencies; starts and stops run behaviours. */
export class ServiceControlManager {
  private readonly services = new Map<string, ServiceRecord>();
  /** Starts under way, by lower-cased name. */
  private readonly starting = new Map<string, Promise<void>>();
  /** Set while the host boots: the auto-start of a service that hangs is not waited for. */
  private booting = false;
  /** Stops under way, by lower-cased name. */
  private readonly stopping = new Map<string, Promise<void>>();
  readonly events: ScmEvent[] = [];
  /** START_PENDING to RUNNING. */
  serviceStartMs = 0;
  /** STOP_PENDING to STOPPED. */
  serviceStopMs = 0;
  /** How long a start is waited for (the module's `$script:ServiceTimeout`, two minutes). */
  startTimeoutMs = 120_000;
  /** Deleted services: marked for deletion until the SCM removes them (deletion.ts). */
  readonly deletion = new ServiceDeletion(this.services);

  constructor(
    private readonly host: WindowsModel,
    private readonly behaviours: ServiceBehaviourRegistry,
  ) {}

  get(name: string): ServiceRecord | undefined {
    return this.services.get(name.toLowerCase());
  }

  all(): ServiceRecord[] {
    return [...this.services.values()];
  }

  /** `sc.exe create` / `New-Service`: a new stopped service. */
  create(spec: Omit<ServiceRecord, 'state'>): void {
    this.deletion.refuseMarked(spec.name, 'CreateService');
    if (this.get(spec.name))
      throw new Error(`[SC] CreateService FAILED 1073: The specified service already exists.`);
    this.services.set(spec.name.toLowerCase(), { ...spec, state: 'stopped' });
    this.note('create', spec.name);
  }

  configure(
    name: string,
    change: Pick<ServiceRecord, 'commandLine' | 'startType' | 'dependencies' | 'description'>,
  ): void {
    const svc = this.mustGet(name);
    Object.assign(svc, change);
    this.note('configure', svc.name);
  }

  private mustGet(name: string): ServiceRecord {
    const svc = this.get(name);
    if (!svc)
      throw new Error(
        `[SC] OpenService FAILED 1060: The specified service does not exist as an installed service.`,
      );
    return svc;
  }

  private note(action: ScmEvent['action'], name: string, pendingSince?: number): void {
    const at = performance.now();
    this.events.push(pendingSince === undefined ? { action, name, at } : { action, name, at, pendingSince });
  }

  dependents(name: string): ServiceRecord[] {
    return this.all().filter((s) => s.dependencies.some((d) => d.toLowerCase() === name.toLowerCase()));
  }

  /**
   * Starts dependencies first (as the SCM does), then the service; fails when its behaviour says so. A start
   * already under way is joined, so a service started from two places at once starts once.
   */
  async start(name: string, chain: readonly string[] = []): Promise<void> {
    const svc = this.mustGet(name);
    this.deletion.refuseMarked(svc.name, 'StartService');
    if (svc.state === 'running') return;
    const key = svc.name.toLowerCase();
    if (chain.includes(key)) throw new Error(`service '${svc.name}' has a circular dependency (error 1059)`);
    let run = this.starting.get(key);
    if (!run) {
      run = this.startNow(svc, [...chain, key]).finally(() => this.starting.delete(key));
      this.starting.set(key, run);
    }
    return run;
  }

  /**
   * `ServiceController.Start()` on each service, then `WaitForStatus('Running')` on each: their start-ups
   * overlap, so the start cost is paid once for the lot (a service whose dependency is among them still
   * waits for it to run first). Fails with the first failing service's error, in `names` order.
   */
  async startTogether(names: readonly string[]): Promise<void> {
    const settled = await Promise.allSettled(names.map((n) => this.start(n)));
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private async startNow(svc: ServiceRecord, chain: readonly string[]): Promise<void> {
    if (svc.startType === 'disabled') throw new Error(`service '${svc.name}' is disabled (error 1058)`);
    for (const dep of svc.dependencies) await this.start(dep, chain);
    svc.state = 'start-pending';
    const pendingSince = performance.now();
    if (this.serviceStartMs > 0) await sleep(this.serviceStartMs);
    const abort = new AbortController();
    const run = await this.behaviours.for(svc.name).start({
      name: svc.name,
      commandLine: svc.commandLine,
      argv: splitCommandLine(svc.commandLine),
      host: this.host,
      files: this.host.files,
      signal: abort.signal,
    });
    // At boot nobody waits for it: it just stays START_PENDING.
    if (run.state === 'hung') return this.booting ? undefined : this.startTimedOut(svc);
    if (run.state === 'failed') {
      // The process ended during its start: STOPPED, with the code it ended with.
      svc.state = 'stopped';
      svc.exitCode = run.exitCode ?? PROCESS_ABORTED;
      this.note('fail', svc.name, pendingSince);
      throw new Error(
        `service '${svc.name}' stopped right after starting (exit code ${svc.exitCode}): ${run.reason}`,
      );
    }
    // The SCM hands the process the service's Environment value as read at this start.
    Object.assign(svc, { state: 'running', run, abort, runEnvironment: [...(svc.environment ?? [])] });
    svc.exitCode = 0;
    this.note('start', svc.name, pendingSince);
  }

  /** A service that never reports RUNNING stays START_PENDING; the wait for it gives up. */
  private async startTimedOut(svc: ServiceRecord): Promise<void> {
    await sleep(this.startTimeoutMs);
    throw new Error(
      `service '${svc.name}' did not reach Running: Time out has expired and the operation has not been completed.`,
    );
  }

  /** Stops running dependents first, then the service: STOP_PENDING for `serviceStopMs`, then STOPPED. */
  async stop(name: string): Promise<void> {
    const svc = this.get(name);
    if (!svc) return;
    for (const dependent of this.dependents(svc.name)) await this.stop(dependent.name);
    if (svc.state === 'stopped') return;
    if (svc.state === 'start-pending') {
      // A service still starting does not take controls yet (ServiceController.Stop() throws).
      throw new Error(
        `Cannot stop ${svc.name} service on computer '.': The service cannot accept control messages at this time (1061).`,
      );
    }
    // A stop under way is joined: the service stops once.
    const key = svc.name.toLowerCase();
    let stopping = this.stopping.get(key);
    if (!stopping) {
      stopping = this.stopNow(svc).finally(() => this.stopping.delete(key));
      this.stopping.set(key, stopping);
    }
    return stopping;
  }

  private async stopNow(svc: ServiceRecord): Promise<void> {
    svc.state = 'stop-pending';
    svc.abort?.abort();
    if (svc.run?.state === 'running') await svc.run.stop?.();
    if (this.serviceStopMs > 0) await sleep(this.serviceStopMs);
    svc.state = 'stopped';
    delete svc.run;
    delete svc.abort;
    this.note('stop', svc.name);
  }

  /**
   * Waits (at most `timeoutMs`) for a start under way to end, in RUNNING or STOPPED: what the module's
   * Stop-WmcoService does before it stops a START_PENDING service.
   */
  async startSettled(name: string, timeoutMs: number): Promise<void> {
    const run = this.starting.get(name.toLowerCase());
    if (!run) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((r) => (timer = setTimeout(r, timeoutMs)));
    await Promise.race([run.catch(() => undefined), timeout]);
    clearTimeout(timer);
  }

  /**
   * `sc.exe delete` after a stop: the service is marked for deletion and goes once the SCM is done with it
   * (`deletion`: no handle open, then `deleteMs`). True when there was a service to delete.
   */
  async delete(name: string): Promise<boolean> {
    const svc = this.get(name);
    if (!svc) return false;
    await this.stop(svc.name);
    if (this.deletion.mark(svc.name)) this.note('delete', svc.name);
    return true;
  }

  /** Power loss: every service stops at once, without stop hooks ordering. */
  halt(): void {
    for (const svc of this.all()) {
      svc.abort?.abort();
      svc.state = 'stopped';
      delete svc.run;
      delete svc.abort;
    }
  }

  /** Boot: start every auto-start service; failures are left stopped (as the SCM logs and moves on). */
  async boot(): Promise<void> {
    this.booting = true;
    try {
      for (const svc of this.all().filter((s) => s.startType === 'auto')) {
        await this.start(svc.name).catch(() => undefined);
      }
    } finally {
      this.booting = false;
    }
  }
}
