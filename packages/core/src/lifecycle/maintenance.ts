import type { V1Node } from '@kubernetes/client-node';
import { DriftRepair } from './drift-repair.js';
import type { JoinDeps } from './join-deps.js';
import type { JoinFlow } from './join-flow.js';
import type { HostKeyStore } from '../host/host-key-store.js';
import { errorMessage } from '../kube/logger.js';
import { DisruptionBudget } from './disruption-budget.js';
import { lifecycleOptions, type LifecycleOptions } from './lifecycle-options.js';
import { NodeUpgrades } from './node-upgrades.js';
import { ServicesConfigMapKeeper } from './services-configmap-keeper.js';
import { TrackedJoinFlow } from './tracked-join-flow.js';
import { UpgradeFlow } from './upgrade-flow.js';
import { ActiveWork, UpgradeableReporter, busyNodes } from './upgradeable.js';

/**
 * The node lifecycle parts one operator shares between its sources: the disruption budget, the upgrade
 * flow, the services ConfigMap keeper and the OperatorCondition reporter. The BYOH and the Machine
 * sources take their budget and flows from the same instance (ADR 0020).
 */
export class NodeMaintenance {
  readonly options: LifecycleOptions;
  readonly budget: DisruptionBudget;
  private readonly work = new ActiveWork();
  private readonly keeper: ServicesConfigMapKeeper;
  private readonly reporter: UpgradeableReporter | undefined;

  constructor(
    private readonly deps: JoinDeps,
    nodes: () => readonly V1Node[],
    options: Partial<LifecycleOptions> = {},
  ) {
    this.options = lifecycleOptions(options);
    this.budget = new DisruptionBudget(this.options.maxUnavailable, nodes);
    this.keeper = new ServicesConfigMapKeeper(deps, nodes);
    const port = this.options.operatorCondition;
    this.reporter = port
      ? new UpgradeableReporter(
          port,
          () => [...this.work.active(), ...busyNodes(nodes(), deps.version)],
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
    this.keeper.start(this.options.servicesResyncMs);
    await this.reporter
      ?.sync()
      .catch((err: unknown) =>
        this.deps.logger.warn({ err: errorMessage(err) }, 'cannot write the OperatorCondition yet'),
      );
    this.reporter?.start(this.options.upgradeableIntervalMs);
  }

  /** This version's services ConfigMap changed or went away: put it right now, not at the next resync. */
  servicesConfigMapChanged(): void {
    this.keeper.syncSoon();
  }

  async stop(): Promise<void> {
    await Promise.all([this.keeper.stop(), this.reporter?.stop()]);
  }
}
