import type { V1Node } from '@kubernetes/client-node';
import { approvedClientCsr } from '../../admit/approval-record.js';
import { openShiftBootstrapIdentity } from '../../identity/bootstrap-identity.js';
import { systemClock } from '../../kube/clock.js';
import { Controller } from '../../kube/controller.js';
import { defaultControllerRateLimiter } from '../../kube/rate-limiter.js';
import { WorkQueue } from '../../kube/work-queue.js';
import { CoalescedCall } from '../../kube/coalesced-call.js';
import { Annotations, Labels, PRIVATE_KEY_FIELD } from '../../identity/node-metadata.js';
import { byohInformers } from './byoh-informers.js';
import { waitingEntries } from './waiting-entries.js';
import { ENTRY_PREFIX, NODE_PREFIX, type ByohView } from './byoh-view.js';
import { CsrReconciler, csrDecided } from '../../controllers/csr-reconciler.js';
import type { EntryAddressing } from './entry-admission.js';
import { InstancesReconciler } from './instances-reconciler.js';
import { MAINTAIN_WORKERS, REMOVE_WORKERS, instanceLanes } from './instance-lanes.js';
import { KeyRotation } from '../../lifecycle/key-rotation.js';
import type { NodeChangeFeed } from '../../lifecycle/node-changes.js';
import { isNodeReady, nodeInternalIp, readNode } from '../../lifecycle/node-ops.js';
import { RemoveFlow } from '../../lifecycle/remove-flow.js';
import { removalCandidates } from './recorded-removals.js';
import { recordedElsewhere } from '../../identity/records-namespace.js';
import { LIFECYCLE_PHASE_ANNOTATION, rebootRequested } from '../../lifecycle/lifecycle-annotations.js';
import type { NodeMaintenance } from '../../lifecycle/maintenance.js';
import { EntryPins } from './entry-pins.js';
import { ByohTakeover } from './byoh-takeover.js';
import { instanceListInformer, type InstancesInformer } from './instance-list.js';
import { byohSource, type ListedSource } from './listed-source.js';
import type { ByohControllersOptions } from './byoh-controllers-options.js';

export type { ByohControllersOptions };

/** What changed on a node that the instances controller cares about (not heartbeats). */
function nodeSignature(n: V1Node): string {
  const a = n.metadata?.annotations ?? {};
  return JSON.stringify([
    n.metadata?.labels?.[Labels.byoh],
    a[Annotations.version],
    a[Annotations.pubKeyHash],
    isNodeReady(n),
    nodeInternalIp(n),
    a[LIFECYCLE_PHASE_ANNOTATION],
    // A reboot request is acted on at once, not at the next drift interval.
    rebootRequested(n),
  ]);
}

/** The least time between two passes that requeue every entry (the first after a quiet spell is at once). */
const REQUEUE_ALL_MS = 500;

/**
 * The BYOH controllers: `windows-instances` entries and BYOH nodes on one work queue (never one host
 * twice at once) whose lanes keep joins (N at once), drift checks and removals from starving each other;
 * kubelet CSRs on another. `start` resolves once every informer synced. The shared lifecycle and the
 * cluster configuration watches are not this source's: the composition builds them once for every source.
 */
type Informers = Omit<ReturnType<typeof byohInformers>, 'instances'> & { instances: InstancesInformer };

export class ByohControllers implements ByohView {
  private readonly informers: Informers;
  private readonly instanceQueue: WorkQueue;
  private readonly csrQueue: WorkQueue;
  private readonly controllers: Controller[];
  private readonly csr: CsrReconciler;
  /** The budget, upgrade flow, services ConfigMaps and OperatorCondition (shared with the other sources). */
  readonly maintenance: NodeMaintenance;
  private readonly nodeFeed: NodeChangeFeed;
  private informersStarted: Promise<void> | undefined;
  /** The entries of windows-instances as last seen, to reconcile those that disappear. */
  private listedEntries = new Set<string>();
  private readonly o: ByohControllersOptions;
  private stopped = false;
  /**
   * Informer events requeue every entry once per burst (an initial list of 2,000 Nodes is one pass), and
   * at most once per REQUEUE_ALL_MS while joins keep changing Nodes.
   */
  private readonly requeue = new CoalescedCall(() => this.enqueueAll(), REQUEUE_ALL_MS);
  readonly source: ListedSource;

  constructor(options: ByohControllersOptions) {
    // Waits for a Node (a join's, an upgrade's Ready) end on this informer's events, not on a poll.
    const o = { ...options, deps: { ...options.deps, nodeChanges: options.nodeFeed } };
    this.o = o;
    this.nodeFeed = o.nodeFeed;
    this.maintenance = o.maintenance;
    this.source = o.source ?? byohSource();
    // Configuration changes requeue this source's nodes at once (as every other source's).
    this.maintenance.addSource({
      id: this.source.id,
      requeueAll: () => this.enqueueAll(),
      requeueWaiting: (names) => this.enqueueWaiting(names),
    });
    this.informers = this.makeInformers();
    this.instanceQueue = new WorkQueue(
      systemClock,
      defaultControllerRateLimiter(systemClock),
      o.metrics?.queue?.(this.source.builtIn ? 'windows-instances' : `source-${this.source.id}`),
      instanceLanes(this, o.deps.version, o.parallelJoins),
    );
    this.csrQueue = new WorkQueue(
      systemClock,
      defaultControllerRateLimiter(systemClock),
      o.metrics?.queue?.('csrs'),
    );
    this.csr = this.makeCsrReconciler();
    this.controllers = this.makeControllers();
    this.wire();
  }

  private makeInformers(): Informers {
    const { deps } = this.o;
    const informers = byohInformers({
      core: deps.core,
      certificates: this.o.certificates,
      watch: this.o.watch,
      namespace: deps.namespace,
      clock: systemClock,
      logger: deps.logger,
      ...(this.o.metrics?.informerRestart ? { onRestart: this.o.metrics.informerRestart } : {}),
      ...(this.o.privateKeySecret ? { privateKeySecret: this.o.privateKeySecret } : {}),
    });
    const list = this.o.source?.list;
    return list ? { ...informers, instances: instanceListInformer(list) } : informers;
  }

  private makeControllers(): Controller[] {
    const { deps } = this.o;
    const driftMetric = this.o.metrics?.drift;
    const flows = {
      join: this.maintenance.joinFlow(this.o.hostKeys),
      pins: new EntryPins(this.o.hostKeys, this, deps.logger),
      // Only windows-instances entries stand where the Go WMCO's did.
      ...(this.source.builtIn ? { takeover: new ByohTakeover(deps, this.o.hostKeys, this) } : {}),
      remove: new RemoveFlow(deps),
      removeOptions: this.o.remove,
      rotation: new KeyRotation(deps),
      upgrades: this.maintenance.upgrades(),
      drift: {
        // Service restarts on Ready nodes (a new proxy) draw from the same budget as upgrades and reboots.
        repair: this.maintenance.driftRepair(),
        intervalMs: this.o.driftRepairIntervalMs ?? 0,
        recent: this.maintenance.recent,
        ...(driftMetric
          ? { observed: (o: { result: Parameters<typeof driftMetric>[0] }) => driftMetric(o.result) }
          : {}),
      },
    };
    const metrics = this.o.metrics?.controller ? { metrics: this.o.metrics.controller } : {};
    const instances = new InstancesReconciler(deps, this, flows, this.addressing(flows.pins));
    const workers = this.o.parallelJoins + MAINTAIN_WORKERS + REMOVE_WORKERS;
    const csrs = new Controller(this.csr, this.csrQueue, { workers: 2, logger: deps.logger, ...metrics });
    return [
      new Controller(instances, this.instanceQueue, { workers, logger: deps.logger, ...metrics }),
      ...(this.approvesCsrs ? [csrs] : []),
    ];
  }

  private get approvesCsrs(): boolean {
    return this.o.approveCsrs !== false;
  }

  private makeCsrReconciler(): CsrReconciler {
    const { deps } = this.o;
    return new CsrReconciler(this.o.certificates, deps.names, {
      events: deps.events,
      logger: deps.logger,
      namespace: deps.namespace,
      bootstrap: this.o.bootstrap ?? openShiftBootstrapIdentity,
      readNode: (name) => readNode(deps.core, name),
      records: deps.records,
      ...(this.o.metrics?.csr ? { metrics: this.o.metrics.csr } : {}),
    });
  }

  private addressing(pins: EntryPins): EntryAddressing {
    const policy = this.o.addressPolicy;
    return { resolve: pins.recording(this.o.resolver), ...(policy ? { policy } : {}) };
  }

  instances(): Readonly<Record<string, string>> | undefined {
    return this.informers.instances.list()[0]?.data;
  }

  windowsNodes(): readonly V1Node[] {
    return this.informers.nodes.list();
  }

  windowsNodesRevision(): number {
    return this.informers.nodes.revision;
  }

  node(name: string): V1Node | undefined {
    return this.informers.nodes.get(name);
  }

  privateKey(): string | undefined {
    const data = this.informers.secret.list()[0]?.data?.[PRIVATE_KEY_FIELD];
    return data === undefined ? undefined : Buffer.from(data, 'base64').toString('utf8');
  }

  /** Told whenever the private key Secret is added, changed or deleted. */
  onPrivateKeyChange(listener: () => void): void {
    for (const ev of ['add', 'update', 'delete'] as const) this.informers.secret.on(ev, listener);
  }

  get synced(): boolean {
    return Object.values(this.informers).every((i) => i.synced);
  }

  /**
   * Starts the informers and resolves once every one synced (once per start: `stop` ends them). The shared
   * lifecycle reads the Windows nodes from them, so the composition starts them first.
   */
  startInformers(): Promise<void> {
    this.informersStarted ??= Promise.all(Object.values(this.informers).map((i) => i.start())).then(
      () => undefined,
    );
    return this.informersStarted;
  }

  /** Starts the informers (if `startInformers` did not) and then the controllers. */
  async start(): Promise<void> {
    await this.startInformers();
    // A stop during the sync ends the start here: nothing (a watch, a worker) starts after the stop.
    if (this.stopped) return;
    this.controllers.forEach((c) => c.start());
    this.enqueueAll();
    if (this.approvesCsrs) this.enqueueCsrs();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.requeue.cancel();
    this.informersStarted = undefined;
    Object.values(this.informers).forEach((i) => i.stop());
    await Promise.all(this.controllers.map((c) => c.stop()));
  }

  private wire(): void {
    const all = (): void => this.requeue.request();
    for (const ev of ['add', 'update', 'delete'] as const) {
      this.informers.instances.on(ev, all);
      this.informers.secret.on(ev, all);
    }
    for (const ev of ['add', 'update'] as const) this.informers.nodes.on(ev, (n) => this.nodeFeed.publish(n));
    // A node back in service hands its slot on to a node waiting for the budget (every source's).
    this.informers.nodes.on('update', (n, old) => this.maintenance.nodeChanged(old, n));
    this.informers.nodes.on('delete', (n) => this.maintenance.nodeChanged(n, undefined));
    this.informers.nodes.on('add', all);
    this.informers.nodes.on('delete', all);
    this.informers.nodes.on('update', (n, old) => {
      if (!old || nodeSignature(n) !== nodeSignature(old)) all();
    });
    if (this.approvesCsrs) this.wireCsrs();
  }

  private wireCsrs(): void {
    for (const ev of ['add', 'update'] as const)
      this.informers.csrs.on(ev, (csr) => {
        if (!csrDecided(csr)) this.csrQueue.add(csr.metadata?.name ?? '');
      });
    this.informers.csrs.on('delete', (csr) => this.csr.forget(csr.metadata?.name ?? ''));
    this.o.deps.names.useApprovals((node, address) =>
      approvedClientCsr(this.informers.csrs.list(), node, address),
    );
    this.o.deps.names.onChange(() => this.enqueueCsrs());
    // A record written (a join claimed its Node) or gone: pending serving CSRs are judged again.
    this.o.deps.records.onChange?.(() => this.enqueueCsrs());
  }

  private enqueueAll(): void {
    const entries = Object.keys(this.instances() ?? {});
    // A gone entry ends its registration (nothing approved for it) and is reconciled once more (status gone).
    if (this.informers.instances.synced) this.o.deps.names.retainOnly(this.o.listedEntries?.() ?? entries);
    // Hosts still leaving (held by the embedder's finalizer) are reconciled as gone, after a restart too.
    const leaving = this.source.list?.leaving?.() ?? [];
    const listed = new Set(entries);
    const gone = [...this.listedEntries, ...leaving].filter((e) => !listed.has(e));
    this.listedEntries = listed;
    [...entries, ...gone].forEach((e) => this.instanceQueue.add(ENTRY_PREFIX + e));
    // Another controller's nodes are neither removed nor reported here (its own records name them).
    const nodes = this.windowsNodes().filter((n) => !recordedElsewhere(n, this.o.deps.namespace));
    for (const n of removalCandidates(nodes, this.o.deps.records, entries, this.source.record))
      this.instanceQueue.add(NODE_PREFIX + n);
  }

  /** The entries of nodes that waited for the budget; a name with no record at all: every entry, soon. */
  private enqueueWaiting(names: readonly string[]): void {
    const { entries, unknown } = waitingEntries(names, this.o.deps.records, this.source.record);
    for (const e of entries) this.instanceQueue.add(ENTRY_PREFIX + e);
    if (unknown) this.requeue.request();
  }

  /** The undecided CSRs (a decided one needs no fresh read: with 1,000 nodes that was 1,000 GETs a registration). */
  private enqueueCsrs(): void {
    for (const c of this.informers.csrs.list()) if (!csrDecided(c)) this.csrQueue.add(c.metadata?.name ?? '');
  }
}
