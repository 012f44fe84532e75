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

type Attempt = 'renewed' | 'refused' | 'deadline' | 'stopped';

/**
 * One renew attempt, abandoned when the clock reaches `deadlineAt` or `stop` aborts first. A deadline
 * timer that runs late by more than a retry period found a process that did not run (its event loop
 * blocked or starved of CPU, as while `wmco sim` on GCP compiles the Compute client library on a busy
 * machine): the answer may be waiting behind that timer, and a successful renew proves leadership however
 * late it comes (the write is conditional on the record read), while a process that does not run starts
 * nothing. So the attempt is given up only by a deadline timer that runs on time: after a late one it
 * gets another retry period of running time.
 */
function attemptBefore(o: LeadershipOptions, deadlineAt: number): Promise<Attempt> {
  return new Promise((resolve) => {
    let dueAt = deadlineAt;
    const finish = (outcome: Attempt): void => {
      o.clock.clearTimeout(handle);
      o.stop.removeEventListener('abort', onStop);
      resolve(outcome);
    };
    const onStop = (): void => finish('stopped');
    const onDeadline = (): void => {
      if (o.clock.now() - dueAt <= o.timing.retryPeriodMs) return finish('deadline');
      dueAt = o.clock.now() + o.timing.retryPeriodMs;
      handle = o.clock.setTimeout(onDeadline, o.timing.retryPeriodMs);
    };
    let handle = o.clock.setTimeout(onDeadline, deadlineAt - o.clock.now());
    o.stop.addEventListener('abort', onStop, { once: true });
    o.elector.tryAcquireOrRenew().then(
      (held) => finish(held ? 'renewed' : 'refused'),
      () => finish('refused'),
    );
  });
}

/**
 * One renew, as client-go's: attempts every retry period until one succeeds, another holder is seen, or
 * the renew deadline passes, counted from this renew's start. An attempt the API server never answers is
 * abandoned at that deadline: a leader that cannot prove it leads stops. The deadline is not counted from
 * the last renewal: a process that did not run for a while (a busy machine, a long synchronous task)
 * would otherwise find its deadline gone before its first attempt, and give up a Lease it still holds.
 */
async function renew(o: LeadershipOptions): Promise<'renewed' | 'lost' | 'stopped'> {
  const deadlineAt = o.clock.now() + o.timing.renewDeadlineMs;
  for (;;) {
    const outcome = await attemptBefore(o, deadlineAt);
    if (outcome === 'renewed' || outcome === 'stopped') return outcome;
    if (outcome === 'deadline' || o.elector.leaseHeldByOther()) return 'lost';
    const left = deadlineAt - o.clock.now();
    if (left <= 0) return 'lost';
    await sleep(o.clock, Math.min(o.timing.retryPeriodMs, left), o.stop);
    if (o.stop.aborted) return 'stopped';
  }
}

/** Renews every retry period until the lease is lost (see `renew`) or `stop` aborts. */
async function lead(o: LeadershipOptions): Promise<'lost' | 'stopped'> {
  while (!o.stop.aborted) {
    await sleep(o.clock, o.timing.retryPeriodMs, o.stop);
    if (o.stop.aborted) return 'stopped';
    const outcome = await renew(o);
    if (outcome !== 'renewed') return outcome;
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
