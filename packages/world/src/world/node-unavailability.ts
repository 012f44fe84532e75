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
  private mostNames: string[] = [];
  /** Node-seconds spent unavailable since the last reset, up to the last event, and when that was. */
  private nodeSeconds = 0;
  private lastAt: number;
  /** Each unavailable node's time of becoming so, and how long each finished spell lasted (s). */
  private readonly since = new Map<string, number>();
  private readonly spells: number[] = [];

  constructor(private readonly now_: () => number = Date.now) {
    this.lastAt = now_();
  }

  observe(type: string, node: V1Node): void {
    const name = node.metadata?.name;
    if (name === undefined) return;
    const at = this.now_();
    this.nodeSeconds += (this.unavailable.size * (at - this.lastAt)) / 1000;
    this.lastAt = at;
    if (type !== 'DELETED' && isUnavailable(node)) {
      this.unavailable.add(name);
      if (!this.since.has(name)) this.since.set(name, at);
    } else {
      this.unavailable.delete(name);
      const from = this.since.get(name);
      this.since.delete(name);
      if (from !== undefined) this.spells.push((at - from) / 1000);
    }
    if (this.unavailable.size > this.most) {
      this.most = this.unavailable.size;
      this.mostNames = [...this.unavailable].sort();
    }
  }

  /** Forget the peaks, node-seconds and spells seen so far (the joins before the upgrade), keeping what is unavailable now. */
  resetPeak(): void {
    this.most = this.unavailable.size;
    this.mostNames = [...this.unavailable].sort();
    this.nodeSeconds = 0;
    this.lastAt = this.now_();
    this.spells.length = 0;
  }

  get now(): number {
    return this.unavailable.size;
  }

  get maxSeen(): number {
    return this.most;
  }

  /** Which nodes were unavailable when the most were (sorted; empty if none ever was). */
  get maxSeenNodes(): readonly string[] {
    return this.mostNames;
  }

  /** Node-seconds unavailable since the last reset, up to now. */
  unavailableNodeSeconds(): number {
    return this.nodeSeconds + (this.unavailable.size * (this.now_() - this.lastAt)) / 1000;
  }

  /** How long each node was unavailable, for spells that ended since the last reset (s, in order of ending). */
  finishedSpells(): readonly number[] {
    return [...this.spells];
  }
}
