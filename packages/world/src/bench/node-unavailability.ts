import type { V1Node } from '@kubernetes/client-node';

/** A node counts against the budget while cordoned or not Ready (as the Machine Config Operator counts). */
export function isUnavailable(node: V1Node): boolean {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
  return node.spec?.unschedulable === true || !ready;
}

/**
 * The most nodes unavailable at once, from the Node watch's events in order: each event replaces what is
 * known of its node, a deletion removes it.
 */
export class UnavailabilityTracker {
  private readonly unavailable = new Set<string>();
  private most = 0;

  observe(type: string, node: V1Node): void {
    const name = node.metadata?.name;
    if (name === undefined) return;
    if (type !== 'DELETED' && isUnavailable(node)) this.unavailable.add(name);
    else this.unavailable.delete(name);
    this.most = Math.max(this.most, this.unavailable.size);
  }

  /** Forget the peaks seen so far (the joins before the upgrade), keeping what is unavailable now. */
  resetPeak(): void {
    this.most = this.unavailable.size;
  }

  get now(): number {
    return this.unavailable.size;
  }

  get maxSeen(): number {
    return this.most;
  }
}
