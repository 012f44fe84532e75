import type { MaxUnavailable } from './max-unavailable.js';
import type { OperatorConditionPort } from './upgradeable.js';

/** How node maintenance runs: the disruption budget and the upgrade flow's bounded waits. */
export interface LifecycleOptions {
  /** Windows nodes that may be unavailable at once (default 1). */
  readonly maxUnavailable: MaxUnavailable;
  /** The bounded wait for one drain before the node is put back and tried later (default 10 min). */
  readonly drainTimeoutMs: number;
  /**
   * The admin's drain timeout (ADR 0037): after this long, the pods a PodDisruptionBudget keeps on a node
   * being upgraded are deleted and the upgrade goes on. Absent (the default): wait, as before.
   */
  readonly drainForceAfterMs?: number | undefined;
  /** Pause between eviction passes while a PodDisruptionBudget refuses (default 5 s, as kubectl). */
  readonly drainRetryMs: number;
  /** When a node that waits for the budget, or whose drain was blocked, is tried again (default 30 s). */
  readonly upgradeRetryMs: number;
  /** How often the services ConfigMaps are checked (restored, old versions deleted; default 30 s). */
  readonly servicesResyncMs: number;
  /** OLM's OperatorCondition (when `OPERATOR_CONDITION_NAME` is set); absent: no Upgradeable reporting. */
  readonly operatorCondition?: OperatorConditionPort | undefined;
  /** How often busy/free is looked at (in memory; written only on change; default 1 s). */
  readonly upgradeableIntervalMs: number;
}

export function lifecycleOptions(o: Partial<LifecycleOptions> = {}): LifecycleOptions {
  return {
    maxUnavailable: { kind: 'count', count: 1 },
    drainTimeoutMs: 10 * 60_000,
    drainRetryMs: 5000,
    upgradeRetryMs: 30_000,
    servicesResyncMs: 30_000,
    upgradeableIntervalMs: 1000,
    ...o,
  };
}
