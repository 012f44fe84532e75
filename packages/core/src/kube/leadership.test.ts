import test from 'ava';
import { FakeClock } from './fake-clock.js';
import { LeaderElector } from './leader-elector.js';
import { InMemoryLeaseStore, type LeaseRecord } from './lease-store.js';
import { runLeadership } from './leadership.js';

const timing = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

/** The Lease store of an API server that, once `silent`, never answers a read (the request hangs). */
class SilentStore extends InMemoryLeaseStore {
  silent = false;
  override get(): Promise<LeaseRecord | undefined> {
    return this.silent ? new Promise(() => undefined) : super.get();
  }
}

/** The Lease store of an API server that answers each read `latencyMs` later on `clock`. */
class SlowStore extends InMemoryLeaseStore {
  constructor(
    private readonly clock: FakeClock,
    private readonly latencyMs: number,
  ) {
    super();
  }
  override get(): Promise<LeaseRecord | undefined> {
    return new Promise((resolve) => this.clock.setTimeout(() => resolve(super.get()), this.latencyMs));
  }
}

/** Lets pending promise callbacks run (the fake clock fires its timers synchronously). */
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

test('a renew the API server never answers is a lost Lease at the renew deadline, counted from its start', async (t) => {
  const clock = new FakeClock();
  const store = new SilentStore();
  const run = lead(store, clock);
  const signal = await run.leading;
  store.silent = true;
  let outcome: string | undefined;
  void run.done.then((o) => (outcome = o));
  clock.advance(timing.retryPeriodMs); // the renew starts, and hangs
  await settle();
  clock.advance(timing.renewDeadlineMs - 1);
  await settle();
  t.is(outcome, undefined, 'still leading just before the deadline');
  t.false(signal.aborted);
  clock.advance(1);
  await settle();
  t.is(outcome, 'lost');
  t.deepEqual(run.order, ['work aborted', 'stopped leading']);
});

test('a stop while a renew hangs steps down at once', async (t) => {
  const clock = new FakeClock();
  const store = new SilentStore();
  const run = lead(store, clock);
  await run.leading;
  store.silent = true;
  clock.advance(timing.retryPeriodMs);
  await settle();
  run.stop.abort();
  t.is(await run.done, 'stopped');
  t.deepEqual(run.order, ['work aborted', 'stopped leading']);
});

test('a process that did not run for longer than the renew deadline renews at once, and keeps leading', async (t) => {
  // What made `wmco sim` on GCP lose its Lease when the deadline was counted from the last renewal: the
  // event loop busy for seconds, the renew deadline gone before the renew was even sent.
  const clock = new FakeClock();
  const store = new SlowStore(clock, 100);
  const run = lead(store, clock);
  await settle();
  clock.advance(100); // the first read, answered
  const signal = await run.leading;
  let outcome: string | undefined;
  void run.done.then((o) => (outcome = o));
  const before = (await InMemoryLeaseStore.prototype.get.call(store))?.renewTime;
  clock.advance(timing.retryPeriodMs + timing.renewDeadlineMs + 1); // one late timer: the process stalled
  await settle();
  clock.advance(100); // the renew's read is answered after the API server's latency
  await settle();
  await settle();
  t.is(outcome, undefined, 'the renew that followed succeeded: still leading');
  t.false(signal.aborted);
  t.not((await InMemoryLeaseStore.prototype.get.call(store))?.renewTime, before, 'the Lease was renewed');
  run.stop.abort();
  t.is(await run.done, 'stopped');
});

test('a renew answered while the process did not run is not lost to its own late deadline timer', async (t) => {
  // The cause of `wmco sim` on GCP losing its Lease at a load of 30 on two cores: its event loop did not
  // run for 14 s during a renew; the renew's answer and its 2 s deadline timer were both due when it ran
  // again, and the timer, run first, gave up a Lease the renew had just kept.
  const clock = new FakeClock();
  const store = new SlowStore(clock, 100);
  const run = lead(store, clock);
  await settle();
  clock.advance(100);
  const signal = await run.leading;
  let outcome: string | undefined;
  void run.done.then((o) => (outcome = o));
  clock.advance(timing.retryPeriodMs); // the renew is sent
  await settle();
  clock.stall(timing.renewDeadlineMs + 5000); // the process does not run; the answer arrives meanwhile
  clock.advance(0); // it runs again: every overdue timer fires, the deadline's included
  await settle();
  await settle();
  t.is(outcome, undefined, 'still leading: the renew succeeded');
  t.false(signal.aborted);
  run.stop.abort();
  t.is(await run.done, 'stopped');
});

test('a renew still unanswered after a stall is a lost Lease once a retry period has run without an answer', async (t) => {
  const clock = new FakeClock();
  const store = new SilentStore();
  const run = lead(store, clock);
  await run.leading;
  store.silent = true;
  let outcome: string | undefined;
  void run.done.then((o) => (outcome = o));
  clock.advance(timing.retryPeriodMs);
  await settle();
  clock.stall(timing.renewDeadlineMs + 5000);
  clock.advance(0);
  await settle();
  t.is(outcome, undefined, 'the late deadline gives the answer another retry period');
  clock.stall(timing.retryPeriodMs * 3); // the process stalls again: that retry period did not run
  clock.advance(0);
  await settle();
  t.is(outcome, undefined, 'a late timer again: another retry period');
  clock.advance(timing.retryPeriodMs); // this one runs on time, and the answer has not come
  await settle();
  t.is(outcome, 'lost');
});
