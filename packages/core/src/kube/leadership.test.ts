import test from 'ava';
import { FakeClock } from './fake-clock.js';
import { LeaderElector } from './leader-elector.js';
import { InMemoryLeaseStore } from './lease-store.js';
import { runLeadership } from './leadership.js';

const timing = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

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
