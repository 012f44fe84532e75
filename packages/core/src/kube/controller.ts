import { errorMessage, silentLogger, type Logger } from './logger.js';
import type { WorkQueue } from './work-queue.js';

/** What a reconcile asks for next: nothing (done), or to look again after a delay. */
export interface ReconcileOutcome {
  readonly requeueAfterMs?: number;
}

/** One reconciler per watched thing; `key` identifies the object (e.g. `byoh/10.0.0.5`). */
export interface Reconciler {
  readonly name: string;
  reconcile(key: string, signal: AbortSignal): Promise<ReconcileOutcome | undefined>;
  /** Told after a failed reconcile when the key is tried again (its backoff), e.g. to show it in a status. */
  retrying?(key: string, delayMs: number): Promise<void>;
}

/** Counts per controller, for Prometheus or tests. */
export interface ControllerMetrics {
  reconciled?(controller: string, result: 'success' | 'error' | 'requeue', durationMs: number): void;
}

export interface ControllerOptions {
  /** Keys processed at once; a key is never processed twice at once (the queue guarantees it). */
  readonly workers: number;
  readonly logger?: Logger;
  readonly metrics?: ControllerMetrics;
  readonly now?: () => number;
}

/**
 * Runs a reconciler over a work queue with N workers: success forgets the key's backoff, an error
 * re-adds it rate-limited, `requeueAfterMs` re-adds it later. `stop` aborts in-flight reconciles through
 * their signal and waits for them to return, so no half-applied step is left running.
 */
export class Controller {
  private readonly abort = new AbortController();
  private readonly workers: Promise<void>[] = [];
  private readonly logger: Logger;
  private readonly now: () => number;

  constructor(
    private readonly reconciler: Reconciler,
    readonly queue: WorkQueue,
    private readonly options: ControllerOptions,
  ) {
    this.logger = (options.logger ?? silentLogger).child({ controller: reconciler.name });
    this.now = options.now ?? Date.now;
  }

  start(): void {
    for (let i = 0; i < Math.max(1, this.options.workers); i++) this.workers.push(this.work());
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.queue.shutDownWithDrain();
    await Promise.all(this.workers);
  }

  private async work(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      try {
        await this.processOne(key);
      } finally {
        this.queue.done(key);
      }
    }
  }

  private async processOne(key: string): Promise<void> {
    const started = this.now();
    try {
      const outcome = await this.reconciler.reconcile(key, this.abort.signal);
      this.queue.forget(key);
      const after = outcome?.requeueAfterMs;
      if (after !== undefined) this.queue.addAfter(key, after);
      this.options.metrics?.reconciled?.(
        this.reconciler.name,
        after === undefined ? 'success' : 'requeue',
        this.now() - started,
      );
    } catch (err) {
      this.options.metrics?.reconciled?.(this.reconciler.name, 'error', this.now() - started);
      if (this.abort.signal.aborted) return;
      this.logger.warn(
        { key, err: errorMessage(err), retries: this.queue.numRequeues(key) },
        'reconcile failed; will retry',
      );
      await this.retryLater(key);
    }
  }

  /** Re-adds a failed key after its backoff and tells the reconciler when it comes back. */
  private async retryLater(key: string): Promise<void> {
    const delayMs = this.queue.addRateLimited(key);
    await this.reconciler.retrying?.(key, delayMs).catch((e: unknown) => {
      this.logger.warn({ key, err: errorMessage(e) }, 'cannot record the next retry');
    });
  }
}
