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

type RenewOutcome = 'renewed' | 'refused' | 'deadline' | 'stopped';

/**
 * One renew attempt, abandoned when the renew deadline passes or `stop` aborts first: a Lease request the
 * API server never answers must not keep a leader that can no longer prove it leads (client-go bounds
 * the renew the same way, by the renew deadline's context).
 */
function renewBefore(o: LeadershipOptions, deadlineAt: number): Promise<RenewOutcome> {
  return new Promise((resolve) => {
    const finish = (outcome: RenewOutcome): void => {
      o.clock.clearTimeout(handle);
      o.stop.removeEventListener('abort', onStop);
      resolve(outcome);
    };
    const onStop = (): void => finish('stopped');
    const handle = o.clock.setTimeout(() => finish('deadline'), deadlineAt - o.clock.now());
    o.stop.addEventListener('abort', onStop, { once: true });
    o.elector.tryAcquireOrRenew().then(
      (held) => finish(held ? 'renewed' : 'refused'),
      () => finish('refused'),
    );
  });
}

/** Renews until the lease is lost (renew deadline passed or another holder seen) or `stop` aborts. */
async function lead(o: LeadershipOptions): Promise<'lost' | 'stopped'> {
  let lastRenew = o.clock.now();
  while (!o.stop.aborted) {
    await sleep(o.clock, o.timing.retryPeriodMs, o.stop);
    if (o.stop.aborted) return 'stopped';
    const outcome = await renewBefore(o, lastRenew + o.timing.renewDeadlineMs);
    if (outcome === 'stopped') return 'stopped';
    if (outcome === 'renewed') lastRenew = o.clock.now();
    else if (outcome === 'deadline' || o.elector.leaseHeldByOther()) return 'lost';
    else if (o.clock.now() - lastRenew >= o.timing.renewDeadlineMs) return 'lost';
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
