import type { V1Node } from '@kubernetes/client-node';
import type { ReconcileOutcome } from '../kube/controller.js';
import { errorMessage, type Logger } from '../kube/logger.js';
import type { DriftOutcome, DriftRepair } from './drift-repair.js';
import { MAINTAIN_CONNECT_DEADLINE_MS, type HostTarget } from './join-deps.js';
import type { SourceInstance } from './node-source.js';
import type { RecentConvergence } from './recent-convergence.js';

/** Periodic drift repair of up-to-date nodes; `intervalMs` 0 turns it off. */
export interface DriftSettings {
  readonly repair: DriftRepair;
  readonly intervalMs: number;
  readonly observed?: (outcome: DriftOutcome | { result: 'error'; error: string }) => void;
  /** When each host was last joined, upgraded or checked: no check again before the interval. */
  readonly recent?: RecentConvergence;
}

export interface DriftCheckRequest {
  /** The source's key of the instance (a `windows-instances` entry, `<namespace>/<Machine>`). */
  readonly entry: string;
  /** Where the host is reached (the key is added here). */
  readonly target: Pick<HostTarget, 'address' | 'ipv4' | 'username'>;
  /** The source's instance (node-source.ts): the check leaves a Node that is not its own alone. */
  readonly instance: SourceInstance;
  readonly node: V1Node;
  readonly privateKeyPem: string;
  readonly signal: AbortSignal;
  /** False once the entry or the key changed: the check stops before it repairs anything. */
  readonly stillWanted: () => boolean;
}

/**
 * Drift repair (upstream WICD's periodic resync) as every source's controller schedules it (BYOH entries,
 * Machines): an up-to-date node is looked at every `intervalMs` on its instance's queue key, so a check
 * never runs alongside a join of the same host; a node joined, upgraded or checked less than the interval
 * ago is not looked at again for an event that does not concern it (another Node's change, its own version
 * annotation), unless the cluster configuration changed since (`RecentConvergence.configChanged`).
 */
export class DriftChecks {
  constructor(
    private readonly settings: DriftSettings | undefined,
    private readonly now: () => number,
    private readonly logger: Logger,
  ) {}

  /**
   * A join or upgrade of `entry` that began at `began` ended (`outcome`: what it asks of the queue). A
   * finished one counts as a look at the host, and the periodic checks start from it.
   */
  converged(
    entry: string,
    began: number,
    outcome: ReconcileOutcome | undefined,
  ): ReconcileOutcome | undefined {
    if (outcome !== undefined) return outcome;
    this.settings?.recent?.looked(entry, began);
    const interval = this.settings?.intervalMs ?? 0;
    return interval > 0 ? { requeueAfterMs: interval } : undefined;
  }

  forget(entry: string): void {
    this.settings?.recent?.forget(entry);
  }

  async check(r: DriftCheckRequest): Promise<ReconcileOutcome | undefined> {
    const drift = this.settings;
    if (drift === undefined || drift.intervalMs <= 0) return undefined;
    const dueIn = drift.recent?.dueIn(r.entry, r.node, drift.intervalMs);
    if (dueIn !== undefined) return { requeueAfterMs: dueIn };
    await this.run(drift, r);
    return { requeueAfterMs: drift.intervalMs };
  }

  /** One check; a failure is reported, never thrown (but a stop is). */
  private async run(drift: DriftSettings, r: DriftCheckRequest): Promise<void> {
    const began = this.now();
    const target = {
      ...r.target,
      privateKeyPem: r.privateKeyPem,
      connectDeadlineMs: MAINTAIN_CONNECT_DEADLINE_MS,
      // The join installed the module: the check is one exec, with no SFTP look for it first.
      moduleExpected: true,
    };
    try {
      const outcome = await drift.repair.check({
        node: r.node,
        target,
        signal: r.signal,
        stillWanted: r.stillWanted,
        owns: (n) => r.instance.owns(n),
      });
      if (outcome.result !== 'skipped') drift.recent?.looked(r.entry, began);
      drift.observed?.(outcome);
    } catch (err) {
      if (r.signal.aborted) throw err;
      // A node that cannot be looked at now is looked at again at the next interval, not in a tight loop.
      drift.recent?.looked(r.entry, began);
      drift.observed?.({ result: 'error', error: errorMessage(err) });
      this.logger.warn({ address: r.target.address, err: errorMessage(err) }, 'drift check failed');
    }
  }
}
