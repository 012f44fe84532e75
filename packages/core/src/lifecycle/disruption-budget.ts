import { setTimeout as sleep } from 'node:timers/promises';
import type { V1Node } from '@kubernetes/client-node';
import type { ServiceDisruption } from './service-disruption.js';
import { isNodeReady } from './node-ops.js';
import { lifecyclePhase } from './lifecycle-annotations.js';
import { resolveMaxUnavailable, type MaxUnavailable } from './max-unavailable.js';

export type BudgetDecision =
  | { readonly granted: true }
  | { readonly granted: false; readonly max: number; readonly unavailable: readonly string[] };

/** Why a Windows node counts against the budget, or undefined when it is available. */
export function unavailableReason(node: V1Node): string | undefined {
  if (lifecyclePhase(node) !== undefined) return 'taken out of service by the operator';
  if (!isNodeReady(node)) return 'not Ready';
  return undefined;
}

/**
 * The one place that decides which Windows nodes may be disrupted now (upgrades and reboots ask it; a
 * Machine source asks the same instance). A node is unavailable when the operator has cordoned it for a
 * lifecycle action or it is not Ready; a grant held by this process counts too, so two workers that read
 * the same (possibly stale) node list cannot both take the last slot. Asking for a node that is already
 * unavailable is always granted: resuming it adds nothing to the count.
 */
export class DisruptionBudget implements ServiceDisruption {
  private readonly held = new Set<string>();
  private readonly also: (() => readonly string[])[] = [];
  /** Nodes refused since the last release, and who hears of a slot freed while any waits. */
  private readonly refused = new Set<string>();
  private readonly freed: ((waiting: readonly string[]) => void)[] = [];

  constructor(
    private readonly max: MaxUnavailable,
    private readonly nodes: () => readonly V1Node[],
  ) {}

  /**
   * Adds what a source knows to be out of service without a Node showing it (a Machine being replaced,
   * whose Node goes away with it): those names count against the budget too.
   */
  countAlso(unavailable: () => readonly string[]): void {
    this.also.push(unavailable);
  }

  /** Synchronous on purpose: the check and the grant cannot interleave with another worker's. */
  tryAcquire(name: string): BudgetDecision {
    const all = this.nodes();
    const out = new Set(this.held);
    for (const more of this.also) for (const n of more()) out.add(n);
    for (const n of all) if (unavailableReason(n) !== undefined) out.add(n.metadata?.name ?? '');
    const max = resolveMaxUnavailable(this.max, all.length);
    if (out.has(name) || out.size < max) {
      this.held.add(name);
      this.refused.delete(name);
      return { granted: true };
    }
    this.refused.add(name);
    return { granted: false, max, unavailable: [...out].sort() };
  }

  /**
   * Frees `name`'s grant. When nodes were refused since, `onFreed` listeners hear their names at once: a
   * rolling budget hands the slot on now, not when each waiting node's retry comes round (the Node's own
   * update may have been seen before the grant was released, so that event found the slot still taken).
   */
  release(name: string): void {
    if (this.held.delete(name)) this.handOn();
  }

  /**
   * A Node's new state as the node cache has it (`after` undefined: deleted). A node that was unavailable
   * and no longer is frees a slot like a released grant: a grant is released when its last write was sent,
   * and a waiting node that asks again before the cache has that write sees the node still out and is
   * refused again; this hears the write arrive. (A Machine source queues a Node's change for that node's
   * own Machine only, so without it the waiting Machine waited for its retry, 30 s.)
   */
  nodeChanged(before: V1Node | undefined, after: V1Node | undefined): void {
    const wasOut = before !== undefined && unavailableReason(before) !== undefined;
    const isOut = after !== undefined && unavailableReason(after) !== undefined;
    if (wasOut && !isOut) this.handOn();
  }

  private handOn(): void {
    if (this.refused.size === 0) return;
    const waiting = [...this.refused].sort();
    this.refused.clear();
    for (const l of this.freed) l(waiting);
  }

  /**
   * Told, with the names refused since, whenever a slot frees while nodes wait: a grant released, or a
   * node seen back in service (`nodeChanged`).
   */
  onFreed(listener: (waiting: readonly string[]) => void): void {
    this.freed.push(listener);
  }

  /**
   * Runs `work` (a service restart on a Ready node, e.g. for a new proxy) once the budget grants `node`,
   * asking again every `retryMs` until it does; the node counts against the budget until `work` settles.
   * Drift repair's restarts thereby share one budget with upgrades and reboots.
   */
  async disrupt<T>(node: string, work: () => Promise<T>, retryMs = 1000): Promise<T> {
    const alreadyHeld = this.held.has(node);
    while (!this.tryAcquire(node).granted) await sleep(retryMs);
    try {
      return await work();
    } finally {
      if (!alreadyHeld) this.release(node);
    }
  }

  /** Names this process holds a grant for (for status and tests). */
  holding(): readonly string[] {
    return [...this.held].sort();
  }
}
