import type { V1Node } from '@kubernetes/client-node';
import { joinedByOperator } from '../identity/node-ownership.js';
import { errorMessage, type Logger } from '../kube/logger.js';
import { Annotations } from '../identity/node-metadata.js';
import { lifecyclePhase } from './lifecycle-annotations.js';

/** The condition OLM reads before it replaces the operator (reference §4 OperatorCondition). */
export interface UpgradeableCondition {
  readonly status: 'True' | 'False';
  readonly reason: string;
  readonly message: string;
}

/** Upstream's reasons and messages (`pkg/condition`), kept verbatim. */
export const UPGRADEABLE: UpgradeableCondition = {
  status: 'True',
  reason: 'upgradeIsSafe',
  message: 'The operator is safe for upgrade',
};
export const NOT_UPGRADEABLE: UpgradeableCondition = {
  status: 'False',
  reason: 'upgradeIsNotSafe',
  message: 'The operator is currently processing sub-components. At least one controller is busy.',
};

/** Writes the `Upgradeable` condition of the operator's OperatorCondition. */
export interface OperatorConditionPort {
  setUpgradeable(condition: UpgradeableCondition): Promise<void>;
}

/**
 * The nodes that keep the operator busy: one the operator took out of service, and one it joined (BYOH or
 * Machine) that does not carry this version yet (joining, or waiting for its upgrade).
 */
export function busyNodes(nodes: readonly V1Node[], version: string): string[] {
  return nodes
    .filter(
      (n) =>
        lifecyclePhase(n) !== undefined ||
        (joinedByOperator(n) && n.metadata?.annotations?.[Annotations.version] !== version),
    )
    .map((n) => n.metadata?.name ?? '');
}

/** In-flight work the node list cannot show (a join before its Node exists), by key. */
export class ActiveWork {
  private readonly keys = new Map<string, number>();

  async during<T>(key: string, work: () => Promise<T>): Promise<T> {
    this.keys.set(key, (this.keys.get(key) ?? 0) + 1);
    try {
      return await work();
    } finally {
      const left = (this.keys.get(key) ?? 1) - 1;
      if (left > 0) this.keys.set(key, left);
      else this.keys.delete(key);
    }
  }

  active(): string[] {
    return [...this.keys.keys()];
  }
}

/**
 * Reports `Upgradeable=False` while nodes are joining or upgrading and `True` otherwise, so OLM does not
 * replace the operator mid-way. Looks every `intervalMs` (in memory) and writes only on a change.
 */
export class UpgradeableReporter {
  private last: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly port: OperatorConditionPort,
    private readonly busy: () => readonly string[],
    private readonly logger: Logger,
  ) {}

  async sync(): Promise<void> {
    const busy = this.busy();
    const next = busy.length > 0 ? NOT_UPGRADEABLE : UPGRADEABLE;
    if (this.last === next.status) return;
    await this.port.setUpgradeable(next);
    this.last = next.status;
    this.logger.info({ upgradeable: next.status, busy }, 'OperatorCondition Upgradeable');
  }

  start(intervalMs: number): void {
    this.timer ??= setInterval(() => {
      this.running ??= this.sync()
        .catch((err: unknown) =>
          this.logger.warn({ err: errorMessage(err) }, 'cannot write the OperatorCondition'),
        )
        .finally(() => (this.running = undefined));
    }, intervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
