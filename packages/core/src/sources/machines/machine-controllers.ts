import type { CustomObjectsApi, V1Node } from '@kubernetes/client-node';
import type { DriftOutcome } from '../../lifecycle/drift-repair.js';
import type { JoinDeps } from '../../lifecycle/join-deps.js';
import { isNodeReady } from '../../lifecycle/node-ops.js';
import type { HostKeyStore } from '../../host/host-key-store.js';
import type { HostPinRemover } from '../../host/host-pins.js';
import { systemClock } from '../../kube/clock.js';
import { Controller, type ControllerMetrics } from '../../kube/controller.js';
import { errorMessage } from '../../kube/logger.js';
import { defaultControllerRateLimiter } from '../../kube/rate-limiter.js';
import type { WatchPort } from '../../kube/watch-port.js';
import { WorkQueue } from '../../kube/work-queue.js';
import { Annotations, PRIVATE_KEY_FIELD } from '../../identity/node-metadata.js';
import { LIFECYCLE_PHASE_ANNOTATION, rebootRequested } from '../../lifecycle/lifecycle-annotations.js';
import type { NodeMaintenance } from '../../lifecycle/maintenance.js';
import type { HostRename } from '../../provider/capabilities/host-rename.js';
import type { UserDataFormat } from '../../provider/capabilities/user-data-format.js';
import { machineInformers } from './machine-informers.js';
import type { MachineResource } from './machine-object.js';
import { MachineReconciler, type MachineView } from './machine-reconciler.js';
import { MachineSetNameCheck, machineSetInformer } from './machine-set-names.js';
import { machineKeyOf, ownerKey, waitingMachineKeys } from './machine-keys.js';
import { forgetDeletedMachine, forgetRecordsOfGoneMachines } from './deleted-machine.js';
import { MachineLifecycle } from './machine-lifecycle.js';
import { MachinePins } from './machine-pins.js';
import { MachineTakeover } from './machine-takeover.js';
import { BudgetedReplacements, type MachineReplacements } from './machine-replacements.js';
import { ensureUserDataSecrets } from './user-data-secret.js';

export interface MachineControllersOptions {
  readonly deps: JoinDeps;
  readonly custom: CustomObjectsApi;
  readonly watch: WatchPort;
  /** Where host keys are pinned; the pins of deleted Machines are forgotten there too. */
  readonly hostKeys: HostKeyStore & HostPinRemover;
  readonly sshUser: string;
  readonly userDataFormat: UserDataFormat;
  readonly hostRename?: HostRename | undefined;
  /** The kubelet's node name comes from the cloud's metadata (AWS, GCP): a takeover compares InternalDNS. */
  readonly nodeNameFromCloud?: boolean;
  readonly privateKeySecret?: string;
  /** Machines joined at once (default 5). */
  readonly parallelJoins: number;
  /** Failed join attempts before the Machine is deleted (default 3). */
  readonly retryBudget?: number;
  readonly retryMs?: number;
  /** The operator's one lifecycle (budget, upgrade and reboot flow), shared with the BYOH source. */
  readonly maintenance: NodeMaintenance;
  /** Drift repair of Ready, current Machine nodes every `intervalMs` (0 or absent: off). */
  readonly driftRepairIntervalMs?: number;
  /** Who decides that a Machine may be replaced now (default: the disruption budget of `maintenance`). */
  readonly replacements?: MachineReplacements;
  readonly metrics?: {
    controller?: ControllerMetrics;
    drift?: (result: DriftOutcome['result'] | 'error') => void;
  };
}

/** What changed on a node that the Machine controller acts on (not heartbeats). */
function nodeSignature(n: V1Node): string {
  const a = n.metadata?.annotations ?? {};
  return JSON.stringify([
    a[Annotations.machine],
    a[Annotations.version],
    a[Annotations.pubKeyHash],
    a[LIFECYCLE_PHASE_ANNOTATION],
    rebootRequested(n),
    isNodeReady(n),
  ]);
}

const USER_DATA_KEY = 'user-data';

/**
 * The Machine source: Windows Machines joined through the shared join flow, the `windows-user-data`
 * Secret kept in step with the private key, Machines that cannot be configured deleted, Machines on an
 * old key replaced under the disruption budget, and joined Machine nodes handed to the one lifecycle
 * (upgrades, reboots, drift repair) they share with BYOH nodes.
 */
export class MachineControllers implements MachineView {
  private readonly informers: ReturnType<typeof machineInformers>;
  private readonly queue: WorkQueue;
  private readonly controller: Controller;
  private readonly pins: MachinePins;
  /** MachineSets, read only where the platform renames VMs (their names limit the Machines' names); optional. */
  private readonly machineSets: ReturnType<typeof machineSetInformer> | undefined;

  constructor(private readonly o: MachineControllersOptions) {
    const { deps } = o;
    this.informers = machineInformers({
      core: deps.core,
      custom: o.custom,
      watch: o.watch,
      namespace: deps.namespace,
      privateKeySecret: o.privateKeySecret,
      clock: systemClock,
      logger: deps.logger,
    });
    this.machineSets = o.hostRename
      ? machineSetInformer({ custom: o.custom, watch: o.watch, clock: systemClock, logger: deps.logger })
      : undefined;
    this.queue = new WorkQueue(systemClock, defaultControllerRateLimiter(systemClock));
    this.pins = new MachinePins(o.hostKeys, () => this.machines(), deps.logger);
    const retryMs = o.retryMs ?? 30_000;
    const reconciler = new MachineReconciler(
      {
        core: deps.core,
        custom: o.custom,
        join: o.maintenance.joinFlow(o.hostKeys),
        events: deps.events,
        logger: deps.logger,
        version: deps.version,
        sshUser: o.sshUser,
        hostRename: o.hostRename,
        retryBudget: o.retryBudget ?? 3,
        status: deps.status,
        records: deps.records,
        retryMs,
        replacements: o.replacements ?? this.budgetedReplacements(Math.min(retryMs, 5000)),
        lifecycle: this.lifecycle(),
        now: () => this.now(),
        pins: this.pins,
        takeover: new MachineTakeover(deps, o.hostKeys, o.sshUser, o.nodeNameFromCloud === true),
      },
      this,
    );
    this.controller = new Controller(
      {
        name: reconciler.name,
        reconcile: (key, signal) =>
          key === USER_DATA_KEY ? this.syncUserData() : reconciler.reconcile(key, signal),
      },
      this.queue,
      {
        workers: o.parallelJoins + 1,
        logger: deps.logger,
        ...(o.metrics?.controller ? { metrics: o.metrics.controller } : {}),
      },
    );
    this.wire();
    // Cluster configuration changes reach Machine nodes at once, as they reach BYOH nodes.
    o.maintenance.addSource({
      id: 'machine',
      requeueAll: () => this.enqueueMachines(),
      requeueWaiting: (names) => this.enqueueWaiting(names),
    });
  }

  private budgetedReplacements(retryMs: number): BudgetedReplacements {
    const { deps } = this.o;
    return new BudgetedReplacements({
      custom: this.o.custom,
      events: deps.events,
      logger: deps.logger,
      machines: () => this.machines(),
      windowsNodes: () => this.windowsNodes(),
      budget: this.o.maintenance.budget,
      retryMs,
      prepare: () => this.syncUserData(),
    });
  }

  private lifecycle(): MachineLifecycle {
    const { deps, metrics } = this.o;
    const observed = metrics?.drift;
    return new MachineLifecycle({
      sshUser: this.o.sshUser,
      logger: deps.logger,
      upgrades: this.o.maintenance.upgrades(),
      now: () => this.now(),
      drift: {
        repair: this.o.maintenance.driftRepair(),
        intervalMs: this.o.driftRepairIntervalMs ?? 0,
        recent: this.o.maintenance.recent,
        ...(observed
          ? { observed: (x: { result: DriftOutcome['result'] | 'error' }) => observed(x.result) }
          : {}),
      },
    });
  }

  private now(): number {
    return (this.o.deps.now?.() ?? new Date()).getTime();
  }

  machine(key: string): MachineResource | undefined {
    const [namespace, name] = key.split('/');
    return this.informers.machines.get(name ?? '', namespace);
  }

  machines(): readonly MachineResource[] {
    return this.informers.machines.list();
  }

  windowsNodes(): readonly V1Node[] {
    return this.informers.nodes.list();
  }

  privateKey(): string | undefined {
    const data = this.informers.secret.list()[0]?.data?.[PRIVATE_KEY_FIELD];
    return data === undefined ? undefined : Buffer.from(data, 'base64').toString('utf8');
  }

  get synced(): boolean {
    return Object.values(this.informers).every((i) => i.synced);
  }

  async start(): Promise<void> {
    // The MachineSet name check only adds events: the Machine source neither waits for it nor depends
    // on it (without list/watch on machinesets its informer keeps retrying and logs why).
    void this.machineSets?.start();
    await Promise.all(Object.values(this.informers).map((i) => i.start()));
    await forgetRecordsOfGoneMachines(this.machines(), this.o.deps);
    this.controller.start();
    this.queue.add(USER_DATA_KEY);
    this.enqueueMachines();
  }

  async stop(): Promise<void> {
    this.machineSets?.stop();
    Object.values(this.informers).forEach((i) => i.stop());
    await this.controller.stop();
  }

  private async syncUserData(): Promise<undefined> {
    const key = this.privateKey();
    if (key === undefined) return undefined;
    const written = await ensureUserDataSecrets(this.o.deps.core, key, this.o.userDataFormat).catch(
      (e: unknown) => {
        this.o.deps.logger.error({ err: errorMessage(e) }, 'cannot write the windows-user-data Secret');
        throw e;
      },
    );
    if (written.length > 0)
      this.o.deps.logger.info({ namespaces: written }, 'windows-user-data Secret updated');
    return undefined;
  }

  private wire(): void {
    this.wireMachineSets();
    const machines = (): void => this.enqueueMachines();
    this.informers.nodes.on('add', machines);
    this.informers.nodes.on('delete', machines);
    // A node's own change concerns its Machine only (a drift check of every other node is not wanted).
    this.informers.nodes.on('update', (n, old) => {
      if (!old || nodeSignature(n) !== nodeSignature(old)) this.enqueueOwner(n);
    });
    this.informers.machines.on('update', (m) => {
      if (m.metadata?.deletionTimestamp !== undefined) this.forget(m, false);
    });
    this.informers.machines.on('delete', (m) => this.forget(m, true));
    for (const ev of ['add', 'update', 'delete'] as const) {
      this.informers.machines.on(ev, (m) => this.queue.add(machineKeyOf(m)));
      this.informers.secret.on(ev, () => {
        this.queue.add(USER_DATA_KEY);
        machines();
      });
      // Deleted or edited by someone: put back (a write of ours comes back equal and changes nothing).
      this.informers.userData.on(ev, () => this.queue.add(USER_DATA_KEY));
    }
  }

  private forget(m: MachineResource, gone: boolean): void {
    const { records, logger } = this.o.deps;
    void forgetDeletedMachine(m, gone, { pins: this.pins, records, logger });
  }

  private wireMachineSets(): void {
    if (!this.machineSets || !this.o.hostRename) return;
    const check = new MachineSetNameCheck(this.o.hostRename, this.o.deps.events, this.o.deps.logger);
    const run = (ms: Parameters<MachineSetNameCheck['check']>[0]): void =>
      void check
        .check(ms)
        .catch((e: unknown) =>
          this.o.deps.logger.error({ err: errorMessage(e) }, 'cannot report an invalid MachineSet name'),
        );
    this.machineSets.on('add', run);
    this.machineSets.on('update', run);
  }

  private enqueueOwner(n: V1Node): void {
    const key = ownerKey(n, this.machines());
    if (key === undefined) this.enqueueMachines();
    else this.queue.add(key);
  }

  /** The Machines among names that waited for the disruption budget. */
  private enqueueWaiting(names: readonly string[]): void {
    for (const key of waitingMachineKeys(names, this.machines(), this.windowsNodes())) this.queue.add(key);
  }

  private enqueueMachines(): void {
    for (const m of this.machines()) this.queue.add(machineKeyOf(m));
  }
}
