import type { V1Node } from '@kubernetes/client-node';
import { recordedElsewhere } from '../identity/records-namespace.js';
import { DriftRepair } from './drift-repair.js';
import type { MaintenanceDeps } from './flow-deps.js';
import type { JoinFlow } from './join-flow.js';
import type { HostKeyStore } from '../host/host-key-store.js';
import { errorMessage } from '../kube/logger.js';
import { DisruptionBudget } from './disruption-budget.js';
import { lifecycleOptions, type LifecycleOptions } from './lifecycle-options.js';
import type { NodeSource } from './node-source.js';
import { NodeUpgrades } from './node-upgrades.js';
import { RecentConvergence } from './recent-convergence.js';
import { ServicesConfigMapKeeper } from './services-configmap-keeper.js';
import { TrackedJoinFlow } from './tracked-join-flow.js';
import { UpgradeFlow } from './upgrade-flow.js';
import { ActiveWork, UpgradeableReporter, busyNodes } from './upgradeable.js';

/** The nodes of this controller and those joined before any said which controller joined them. */
function ours(nodes: readonly V1Node[], namespace: string): V1Node[] {
  return nodes.filter((n) => !recordedElsewhere(n, namespace));
}

/**
 * The node lifecycle parts one operator shares between its sources: the disruption budget, the upgrade
 * flow, the services ConfigMap keeper, the OperatorCondition reporter, and the drift scheduling (when
 * each node was last looked at, and the sources to requeue when the cluster configuration changes). The
 * BYOH and the Machine sources (and any other `NodeSource`) take all of them from the same instance
 * (ADR 0020).
 */
export class NodeMaintenance {
  readonly options: LifecycleOptions;
  readonly budget: DisruptionBudget;
  private readonly work = new ActiveWork();
  private readonly keeper: ServicesConfigMapKeeper;
  private stopped = false;
  private readonly reporter: UpgradeableReporter | undefined;
  /** When each instance's host was last joined, upgraded or checked (drift checks of every source). */
  readonly recent: RecentConvergence;
  private readonly sources: NodeSource[] = [];

  constructor(
    private readonly deps: MaintenanceDeps,
    nodes: () => readonly V1Node[],
    options: Partial<LifecycleOptions> = {},
  ) {
    this.options = lifecycleOptions(options);
    this.recent = new RecentConvergence(() => (deps.now?.() ?? new Date()).getTime());
    this.budget = new DisruptionBudget(this.options.maxUnavailable, nodes);
    // A freed slot goes to a waiting node now, not at its retry (upgradeRetryMs, 30 s): each source
    // looks again at the nodes refused since the last hand-on (they ask the budget once more). Only
    // those: with every node requeued, a 200-node fleet under a budget of 20 reconciled some 40,000
    // instances in its 200 hand-ons, on the operator's one thread, while the slots waited.
    this.budget.onFreed((waiting) => {
      if (this.stopped) return;
      for (const s of this.sources) {
        if (s.requeueWaiting) s.requeueWaiting(waiting);
        else s.requeueAll();
      }
    });
    this.keeper = new ServicesConfigMapKeeper(deps, nodes);
    const port = this.options.operatorCondition;
    this.reporter = port
      ? new UpgradeableReporter(
          port,
          () => [...this.work.active(), ...busyNodes(ours(nodes(), deps.namespace), deps.version)],
          deps.logger,
        )
      : undefined;
  }

  joinFlow(hostKeys: HostKeyStore): JoinFlow {
    return new TrackedJoinFlow(this.deps, hostKeys, this.work);
  }

  /** Drift repair whose service restarts on Ready nodes draw from the same budget as upgrades and reboots. */
  driftRepair(): DriftRepair {
    return new DriftRepair({ ...this.deps, disruption: this.deps.disruption ?? this.budget });
  }

  upgrades(): NodeUpgrades {
    return new NodeUpgrades(
      new UpgradeFlow(this.deps, this.budget, this.options),
      this.deps.events,
      this.options.upgradeRetryMs,
    );
  }

  /** Before any controller runs (after the node informer synced): this version's services ConfigMap. */
  async start(): Promise<void> {
    await this.keeper
      .sync()
      .catch((err: unknown) =>
        this.deps.logger.warn({ err: errorMessage(err) }, 'cannot publish the services ConfigMap yet'),
      );
    // A stop during the sync: no interval starts after it (a ref'd timer kept a stopped process alive).
    if (this.stopped) return;
    this.keeper.start(this.options.servicesResyncMs);
    await this.reporter
      ?.sync()
      .catch((err: unknown) =>
        this.deps.logger.warn({ err: errorMessage(err) }, 'cannot write the OperatorCondition yet'),
      );
    if (!this.stopped) this.reporter?.start(this.options.upgradeableIntervalMs);
  }

  /** A source whose nodes follow the cluster configuration (see `configChanged`). */
  addSource(source: NodeSource): void {
    if (this.sources.some((s) => s.id === source.id))
      throw new Error(`a node source named ${source.id} is registered already`);
    this.sources.push(source);
  }

  /**
   * The cluster configuration the nodes carry changed (a watch saw it): every node of every source is due
   * for a drift check now, not at its next interval, and each source puts its nodes on its queue.
   */
  configChanged(): void {
    this.recent.configChanged();
    for (const s of this.sources) s.requeueAll();
  }

  /** A Windows Node's new state from the node cache (`after` undefined: deleted); see `DisruptionBudget.nodeChanged`. */
  nodeChanged(before: V1Node | undefined, after: V1Node | undefined): void {
    if (!this.stopped) this.budget.nodeChanged(before, after);
  }

  /** This version's services ConfigMap changed or went away: put it right now, not at the next resync. */
  servicesConfigMapChanged(): void {
    this.keeper.syncSoon();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([this.keeper.stop(), this.reporter?.stop()]);
  }
}
