import type { Clock } from './clock.js';
import type { LeaderElectionConfig, LeaderElector } from './leader-elector.js';
import { silentLogger, type Logger } from './logger.js';

export interface LeadershipCallbacks {
  /** Start acting. Stop when `signal` aborts: the lease was lost or the process is shutting down. */
  onStartedLeading(signal: AbortSignal): void;
  onStoppedLeading(): void;
}

function sleep(clock: Clock, ms: number, stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (stop.aborted) return resolve();
    const handle = clock.setTimeout(() => {
      stop.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      resolve();
    };
    stop.addEventListener('abort', onAbort, { once: true });
  });
}

export interface LeadershipOptions {
  readonly elector: LeaderElector;
  readonly clock: Clock;
  readonly timing: Omit<LeaderElectionConfig, 'identity'>;
  readonly callbacks: LeadershipCallbacks;
  /** Abort to step down and release the lease (graceful shutdown). */
  readonly stop: AbortSignal;
  /** Whether to release the lease when stopped (default yes); tests simulating a crash say no. */
  readonly release?: () => boolean;
  readonly logger?: Logger;
}

async function campaign(o: LeadershipOptions): Promise<boolean> {
  while (!o.stop.aborted) {
    if (await o.elector.tryAcquireOrRenew()) return true;
    await sleep(o.clock, o.timing.retryPeriodMs * (1 + Math.random() * 0.2), o.stop);
  }
  return false;
}

/** Renews until the lease is lost (renew deadline passed or another holder seen) or `stop` aborts. */
async function lead(o: LeadershipOptions): Promise<'lost' | 'stopped'> {
  let lastRenew = o.clock.now();
  while (!o.stop.aborted) {
    await sleep(o.clock, o.timing.retryPeriodMs, o.stop);
    if (o.stop.aborted) return 'stopped';
    if (await o.elector.tryAcquireOrRenew()) lastRenew = o.clock.now();
    else if (o.elector.leaseHeldByOther() || o.clock.now() - lastRenew >= o.timing.renewDeadlineMs)
      return 'lost';
  }
  return 'stopped';
}

/**
 * Campaigns for the lease, leads while it renews, and steps down the moment it cannot renew within the
 * renew deadline or sees another holder. Resolves after stepping down: on loss (`'lost'`; the operator
 * exits, as client-go's do) or when `stop` aborts (`'stopped'`, after releasing the lease).
 */
export async function runLeadership(o: LeadershipOptions): Promise<'lost' | 'stopped'> {
  const logger = o.logger ?? silentLogger;
  if (!(await campaign(o))) return 'stopped';
  logger.info({}, 'became leader');
  const leading = new AbortController();
  o.callbacks.onStartedLeading(leading.signal);
  const outcome = await lead(o);
  leading.abort();
  if (outcome === 'stopped' && (o.release?.() ?? true)) await o.elector.release();
  logger.warn({ outcome }, outcome === 'lost' ? 'lost leadership' : 'stepped down');
  o.callbacks.onStoppedLeading();
  return outcome;
}
