import type { Logger } from '@wmco/core';

/** What a term starts and stops: the node sources' controllers (node-sources.ts). */
export interface TermWork {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Resolves when `signal` aborts (at once when it already has). */
export function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/**
 * One leadership term of the operator: its controllers run from `begin` until the term's signal aborts
 * (the Lease lost, or the operator stopping). Then, at once and even while the start still syncs its
 * informers: the fence aborts (no host step starts any more, lease-loss.ts), every reconcile's signal
 * aborts and the queues and informers stop. `ended` resolves once all of it returned.
 */
export class LeadershipTerm {
  /** Aborted when the term ends; host openers check it before every step. */
  readonly fence = new AbortController();
  private stopped: Promise<void> = Promise.resolve();

  constructor(private readonly work: () => TermWork | undefined) {}

  /** Starts the work for a term that ends when `term` aborts; a failed start is logged. */
  begin(term: AbortSignal, logger: Logger): void {
    const running = (this.work()?.start() ?? Promise.resolve()).catch((err: unknown) =>
      logger.error({ err: String(err) }, 'controllers failed to start'),
    );
    // Not chained on the start: a stop while the informers sync ends that start (their stop ends the sync).
    const end = (): void => {
      this.fence.abort();
      this.stopped = Promise.all([this.work()?.stop(), running]).then(() => undefined);
    };
    if (term.aborted) end();
    else term.addEventListener('abort', end, { once: true });
  }

  /** Resolves once the ended term's work stopped (at once before a term ended). */
  get ended(): Promise<void> {
    return this.stopped;
  }
}
