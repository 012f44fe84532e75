import type { Clock, TimerHandle } from './clock.js';
import { LaneBuckets } from './lane-buckets.js';
import type { RateLimiter } from './rate-limiter.js';

/** What a queue reports, for Prometheus or tests. All methods are optional to implement. */
export interface WorkQueueMetrics {
  depth?(n: number): void;
  added?(): void;
  retried?(): void;
  queueLatencyMs?(ms: number): void;
  workDurationMs?(ms: number): void;
}

/**
 * Per-kind limits: every key belongs to a lane (`laneOf`, asked when the key is handed out), and at most
 * `limits[lane]` keys of a lane are processed at once (a lane without a limit has none). Keys of a full
 * lane wait while keys behind them in other lanes are handed out, so one kind of slow work (joins to hosts
 * that do not answer) cannot hold every worker.
 */
export interface WorkQueueLanes {
  laneOf(key: string): string;
  readonly limits: Readonly<Record<string, number>>;
  /**
   * Changes whenever `laneOf` may answer differently for some key. While it stays the same, the queue asks
   * about each waiting key once and keeps the waiting keys by lane (lane-buckets.ts): adding a key costs
   * one question, and handing one out looks at one key per lane. Absent: every key is asked each time.
   */
  generation?(): number;
}

/**
 * A de-duplicating work queue with client-go semantics. A key waits in the queue at most once; a key
 * being processed is never handed out again until `done`, and if it was added meanwhile it is queued once
 * more at `done`. Retries go through a rate limiter (per-key backoff plus a global bucket).
 */
export class WorkQueue {
  /** Waiting keys: first in, first out; with lanes, by lane. */
  private readonly fifo: string[] = [];
  private readonly byLane: LaneBuckets | undefined;
  private readonly dirty = new Set<string>();
  private readonly processing = new Map<string, number>();
  private readonly addedAt = new Map<string, number>();
  private readonly delayed = new Map<string, { at: number; handle: TimerHandle }>();
  private readonly waiters: ((key: string | undefined) => void)[] = [];
  private readonly drained: (() => void)[] = [];
  /** The lane each key being processed was handed out in, and how many keys each lane processes now. */
  private readonly laneOfTaken = new Map<string, string>();
  private readonly busy = new Map<string, number>();
  private shuttingDown = false;

  constructor(
    private readonly clock: Clock,
    private readonly limiter: RateLimiter,
    private readonly metrics: WorkQueueMetrics = {},
    private readonly lanes?: WorkQueueLanes,
  ) {
    this.byLane = lanes ? new LaneBuckets(lanes) : undefined;
  }

  add(key: string): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.dirty.add(key);
    this.addedAt.set(key, this.clock.now());
    this.metrics.added?.();
    if (!this.processing.has(key)) this.enqueue(key);
  }

  /** Adds `key` after `ms`; of two pending delays for one key, the earlier wins. */
  addAfter(key: string, ms: number): void {
    if (this.shuttingDown) return;
    if (ms <= 0) return this.add(key);
    const at = this.clock.now() + ms;
    const pending = this.delayed.get(key);
    if (pending && pending.at <= at) return;
    if (pending) this.clock.clearTimeout(pending.handle);
    const handle = this.clock.setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, ms);
    this.delayed.set(key, { at, handle });
  }

  /** Re-adds a failed key after its backoff; returns that backoff in milliseconds. */
  addRateLimited(key: string): number {
    this.metrics.retried?.();
    const delayMs = this.limiter.when(key);
    this.addAfter(key, delayMs);
    return delayMs;
  }

  /** Resets a key's backoff after a success. */
  forget(key: string): void {
    this.limiter.forget(key);
  }

  numRequeues(key: string): number {
    return this.limiter.retries(key);
  }

  /** The next key, or undefined once the queue is shut down. */
  /** The next key if one can be handed out now, without waiting. */
  tryGet(): string | undefined {
    const next = this.nextTakeable();
    return next === undefined ? undefined : this.take(next);
  }

  get(): Promise<string | undefined> {
    const next = this.nextTakeable();
    if (next !== undefined) return Promise.resolve(this.take(next));
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  done(key: string): void {
    const started = this.processing.get(key);
    if (started === undefined) return;
    this.processing.delete(key);
    const lane = this.laneOfTaken.get(key);
    this.laneOfTaken.delete(key);
    if (lane !== undefined) this.busy.set(lane, (this.busy.get(lane) ?? 1) - 1);
    this.metrics.workDurationMs?.(this.clock.now() - started);
    if (this.dirty.has(key) && !this.shuttingDown) this.push(key);
    this.dispatch();
    if (this.processing.size === 0) this.drained.splice(0).forEach((fn) => fn());
  }

  /** Keys of `lane` being processed now. */
  busyIn(lane: string): number {
    return this.busy.get(lane) ?? 0;
  }

  get length(): number {
    return this.byLane ? this.byLane.length : this.fifo.length;
  }

  isProcessing(key: string): boolean {
    return this.processing.has(key);
  }

  /** Stops handing out keys; pending delays are dropped and waiting `get`s resolve undefined. */
  shutDown(): void {
    this.shuttingDown = true;
    for (const { handle } of this.delayed.values()) this.clock.clearTimeout(handle);
    this.delayed.clear();
    this.waiters.splice(0).forEach((w) => w(undefined));
  }

  /** Shuts down and resolves once every key being processed is done. */
  shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  private enqueue(key: string): void {
    this.push(key);
    this.dispatch();
    this.metrics.depth?.(this.length);
  }

  private push(key: string): void {
    if (this.byLane) this.byLane.push(key);
    else this.fifo.push(key);
  }

  /** Hands queued keys to waiting workers while some key's lane has room. */
  private dispatch(): void {
    while (this.waiters.length > 0 && !this.shuttingDown) {
      const next = this.nextTakeable();
      if (next === undefined) return;
      this.waiters.shift()?.(this.take(next));
    }
  }

  /** Removes and returns the first queued key whose lane has room (without lanes: the first key). */
  private nextTakeable(): { key: string; lane?: string } | undefined {
    if (!this.byLane) {
      const key = this.fifo.shift();
      return key === undefined ? undefined : { key };
    }
    return this.byLane.next((lane) => {
      const limit = this.lanes!.limits[lane];
      return limit === undefined || this.busyIn(lane) < limit;
    });
  }

  private take({ key, lane }: { key: string; lane?: string }): string {
    if (lane !== undefined) {
      this.laneOfTaken.set(key, lane);
      this.busy.set(lane, this.busyIn(lane) + 1);
    }
    this.dirty.delete(key);
    this.processing.set(key, this.clock.now());
    const added = this.addedAt.get(key);
    this.addedAt.delete(key);
    if (added !== undefined) this.metrics.queueLatencyMs?.(this.clock.now() - added);
    this.metrics.depth?.(this.length);
    return key;
  }
}
