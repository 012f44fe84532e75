import type { Clock, TimerHandle } from './clock.js';
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
 * A de-duplicating work queue with client-go semantics. A key waits in the queue at most once; a key
 * being processed is never handed out again until `done`, and if it was added meanwhile it is queued once
 * more at `done`. Retries go through a rate limiter (per-key backoff plus a global bucket).
 */
export class WorkQueue {
  private readonly queue: string[] = [];
  private readonly dirty = new Set<string>();
  private readonly processing = new Map<string, number>();
  private readonly addedAt = new Map<string, number>();
  private readonly delayed = new Map<string, { at: number; handle: TimerHandle }>();
  private readonly waiters: ((key: string | undefined) => void)[] = [];
  private readonly drained: (() => void)[] = [];
  private shuttingDown = false;

  constructor(
    private readonly clock: Clock,
    private readonly limiter: RateLimiter,
    private readonly metrics: WorkQueueMetrics = {},
  ) {}

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

  /** Re-adds a failed key after its backoff. */
  addRateLimited(key: string): void {
    this.metrics.retried?.();
    this.addAfter(key, this.limiter.when(key));
  }

  /** Resets a key's backoff after a success. */
  forget(key: string): void {
    this.limiter.forget(key);
  }

  numRequeues(key: string): number {
    return this.limiter.retries(key);
  }

  /** The next key, or undefined once the queue is shut down. */
  get(): Promise<string | undefined> {
    const key = this.queue.shift();
    if (key !== undefined) return Promise.resolve(this.take(key));
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  done(key: string): void {
    const started = this.processing.get(key);
    if (started === undefined) return;
    this.processing.delete(key);
    this.metrics.workDurationMs?.(this.clock.now() - started);
    if (this.dirty.has(key) && !this.shuttingDown) this.enqueue(key);
    if (this.processing.size === 0) this.drained.splice(0).forEach((fn) => fn());
  }

  get length(): number {
    return this.queue.length;
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
    const waiter = this.waiters.shift();
    if (waiter) waiter(this.take(key));
    else this.queue.push(key);
    this.metrics.depth?.(this.queue.length);
  }

  private take(key: string): string {
    this.dirty.delete(key);
    this.processing.set(key, this.clock.now());
    const added = this.addedAt.get(key);
    this.addedAt.delete(key);
    if (added !== undefined) this.metrics.queueLatencyMs?.(this.clock.now() - added);
    this.metrics.depth?.(this.queue.length);
    return key;
  }
}
