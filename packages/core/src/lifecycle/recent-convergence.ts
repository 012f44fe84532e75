import type { V1Node } from '@kubernetes/client-node';

/** When the Node's Ready condition last changed (ms), or undefined when it has none. */
function readySince(node: V1Node): number | undefined {
  const t = node.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime;
  const ms = t === undefined ? NaN : new Date(t).getTime();
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * When each instance's host was last brought to its desired state (a join, an upgrade or a drift check):
 * when that work began (it read the cluster configuration then) and when it ended. The instances queue is fed
 * by every change of every Windows Node (another node's join, this node's own version annotation), so
 * without this each such event would cost every Ready node a drift check, one PowerShell start each, and a
 * node that has just joined would be checked at once. A node is looked at again sooner than the drift
 * interval only when the cluster configuration changed since (`configChanged`) or its Ready condition
 * changed since (it went NotReady and came back: a restart someone else made).
 */
export class RecentConvergence {
  private readonly done = new Map<string, { readonly began: number; readonly ended: number }>();
  private changedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * The work that brought `key`'s host to its desired state (or a check that could not reach it: it is
   * tried again at the next interval, not on every event) began at `began` and ends now.
   */
  looked(key: string, began: number): void {
    this.done.set(key, { began, ended: this.now() });
  }

  forget(key: string): void {
    this.done.delete(key);
  }

  /** The cluster configuration the nodes carry changed: every node is due for a check now. */
  configChanged(): void {
    this.changedAt = this.now();
    this.done.clear();
  }

  /** How long until `key`'s next drift check is due, or undefined when it is due now. */
  dueIn(key: string, node: V1Node, intervalMs: number): number | undefined {
    const last = this.done.get(key);
    // A change while the work ran may have come after it read the configuration.
    if (last === undefined || last.began <= this.changedAt) return undefined;
    const elapsed = this.now() - last.ended;
    if (elapsed >= intervalMs) return undefined;
    const ready = readySince(node);
    if (ready !== undefined && ready > last.ended) return undefined;
    return intervalMs - elapsed;
  }
}
