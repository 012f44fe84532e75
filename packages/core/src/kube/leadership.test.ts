import test from 'ava';
import { FakeClock } from './fake-clock.js';
import { LeaderElector } from './leader-elector.js';
import { InMemoryLeaseStore, type LeaseRecord } from './lease-store.js';
import { runLeadership } from './leadership.js';

const timing = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

/** The Lease store of an API server that, once `silent`, never answers (the request hangs). */
class SilentableStore extends InMemoryLeaseStore {
  silent = false;
  override get(): Promise<LeaseRecord | undefined> {
    return this.silent ? new Promise(() => undefined) : super.get();
  }
}

/** Lets pending promise callbacks run (the fake clock fires timers synchronously). */
const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

interface Run {
  readonly done: Promise<'lost' | 'stopped'>;
  readonly leading: Promise<AbortSignal>;
  readonly order: string[];
  readonly stop: AbortController;
}

function lead(store: InMemoryLeaseStore, clock: FakeClock): Run {
  const order: string[] = [];
  const stop = new AbortController();
  let started: (s: AbortSignal) => void = () => undefined;
  const leading = new Promise<AbortSignal>((r) => (started = r));
  const done = runLeadership({
    elector: new LeaderElector(store, clock, { identity: 'a', ...timing }),
    clock,
    timing,
    stop: stop.signal,
    callbacks: {
      onStartedLeading: (signal) => {
        signal.addEventListener('abort', () => order.push('work aborted'));
        started(signal);
      },
      onStoppedLeading: () => order.push('stopped leading'),
    },
  });
  return { done, leading, order, stop };
}

test('a renew the API server never answers is a lost Lease once the renew deadline passes', async (t) => {
  const clock = new FakeClock();
  const store = new SilentableStore();
  const run = lead(store, clock);
  const signal = await run.leading;
  store.silent = true;
  let outcome: string | undefined;
  void run.done.then((o) => (outcome = o));
  // The renew starts after one retry period and hangs; before the deadline nothing is decided.
  clock.advance(timing.retryPeriodMs);
  await settle();
  clock.advance(timing.renewDeadlineMs - timing.retryPeriodMs - 1);
  await settle();
  t.is(outcome, undefined);
  t.false(signal.aborted);
  clock.advance(1);
  await settle();
  t.is(outcome, 'lost');
  t.true(signal.aborted);
  // The work is aborted before the step-down callback runs, so nothing new starts in between.
  t.deepEqual(run.order, ['work aborted', 'stopped leading']);
});

test('another holder seen at a renew is a lost Lease at once, and the work is aborted', async (t) => {
  const clock = new FakeClock();
  const store = new InMemoryLeaseStore();
  const run = lead(store, clock);
  const signal = await run.leading;
  const current = await store.get();
  await store.update({ ...current!, holderIdentity: 'b', renewTime: new Date(clock.now()).toISOString() });
  clock.advance(timing.retryPeriodMs);
  t.is(await run.done, 'lost');
  t.true(signal.aborted);
  t.deepEqual(run.order, ['work aborted', 'stopped leading']);
});

test('a stop while a renew hangs steps down at once, without waiting for the deadline', async (t) => {
  const clock = new FakeClock();
  const store = new SilentableStore();
  const run = lead(store, clock);
  await run.leading;
  store.silent = true;
  clock.advance(timing.retryPeriodMs);
  await settle();
  run.stop.abort();
  // The release reads nothing (it writes the record last seen); the silent store only hangs reads.
  t.is(await run.done, 'stopped');
  t.deepEqual(run.order, ['work aborted', 'stopped leading']);
});
