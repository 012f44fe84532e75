import type { WorkQueueLanes } from './work-queue.js';

/** One lane's waiting keys in queue order; `head` is the first not yet handed out. */
interface Bucket {
  keys: string[];
  head: number;
}

/** A key handed out, with the lane it was found in. */
export interface TakenKey {
  readonly key: string;
  readonly lane: string;
}

/**
 * The waiting keys of a work queue with lanes, first in, first out, and bucketed by lane: finding the
 * first key whose lane has room looks at one key per lane, not at every waiting key. With 1,000 drift
 * checks waiting behind their two workers, each key handed out or done scanned them all (issue 31).
 *
 * The buckets hold `laneOf`'s answers at one generation of the lanes; when the generation moves on, every
 * waiting key is asked again once (lanes without a generation: at every look, the old scan).
 */
export class LaneBuckets {
  /** Each waiting key's place in the queue; a Map iterates in insertion order, which is queue order. */
  private readonly order = new Map<string, number>();
  private seq = 0;
  private buckets: Map<string, Bucket> | undefined;
  private builtAt: number | undefined;

  constructor(private readonly lanes: WorkQueueLanes) {}

  get length(): number {
    return this.order.size;
  }

  push(key: string): void {
    this.order.set(key, this.seq++);
    // Bucketed at once while the buckets hold this generation's answers; otherwise at the next look.
    if (this.buckets && this.current()) this.bucket(this.lanes.laneOf(key)).keys.push(key);
  }

  /** Removes and returns the first waiting key whose lane has room (`room(lane)`). */
  next(room: (lane: string) => boolean): TakenKey | undefined {
    const buckets = this.current() && this.buckets ? this.buckets : this.rebuild();
    let best: { lane: string; bucket: Bucket; seq: number } | undefined;
    for (const [lane, bucket] of buckets) {
      const key = bucket.keys[bucket.head];
      if (key === undefined || !room(lane)) continue;
      const seq = this.order.get(key)!;
      if (best === undefined || seq < best.seq) best = { lane, bucket, seq };
    }
    if (best === undefined) return undefined;
    const key = best.bucket.keys[best.bucket.head++]!;
    this.order.delete(key);
    compact(best.bucket);
    return { key, lane: best.lane };
  }

  private current(): boolean {
    const generation = this.lanes.generation?.();
    return generation !== undefined && generation === this.builtAt;
  }

  private rebuild(): Map<string, Bucket> {
    this.buckets = new Map();
    this.builtAt = this.lanes.generation?.();
    for (const key of this.order.keys()) this.bucket(this.lanes.laneOf(key)).keys.push(key);
    return this.buckets;
  }

  private bucket(lane: string): Bucket {
    let b = this.buckets!.get(lane);
    if (b === undefined) {
      b = { keys: [], head: 0 };
      this.buckets!.set(lane, b);
    }
    return b;
  }
}

/** Drops the handed-out front of a bucket once it is most of the array (amortised O(1) per key). */
function compact(b: Bucket): void {
  if (b.head === b.keys.length) {
    b.keys = [];
    b.head = 0;
  } else if (b.head > 1024 && b.head * 2 > b.keys.length) {
    b.keys = b.keys.slice(b.head);
    b.head = 0;
  }
}
