import test from 'ava';
import { FakeClock } from './fake-clock.js';
import { silentLogger } from './logger.js';
import { LeaderElector } from './leader-elector.js';
import { runLeadership } from './leadership.js';
import { InMemoryLeaseStore, LeaseConflictError } from './lease-store.js';

const timing = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

test('the first elector takes the lease; the second waits until it expires on its own clock', async (t) => {
  const store = new InMemoryLeaseStore();
  const clock = new FakeClock();
  const a = new LeaderElector(store, clock, { identity: 'a', ...timing });
  const b = new LeaderElector(store, clock, { identity: 'b', ...timing });
  t.true(await a.tryAcquireOrRenew());
  t.false(await b.tryAcquireOrRenew());
  clock.advance(10_000);
  t.true(await a.tryAcquireOrRenew(), 'a renews');
  t.false(await b.tryAcquireOrRenew(), 'b polls and sees the renewal');
  clock.advance(14_000);
  t.false(await b.tryAcquireOrRenew(), 'b observed a renewal 14 s ago: still valid');
  clock.advance(1_001);
  t.true(await b.tryAcquireOrRenew(), 'a stopped renewing: b takes over');
  const record = await store.get();
  t.is(record?.holderIdentity, 'b');
  t.is(record?.leaseTransitions, 1);
  t.false(await a.tryAcquireOrRenew(), 'a sees b as holder now');
  t.true(a.leaseHeldByOther());
});

test('a conflicting write loses: never two holders', async (t) => {
  const store = new InMemoryLeaseStore();
  const clock = new FakeClock();
  const a = new LeaderElector(store, clock, { identity: 'a', ...timing });
  const b = new LeaderElector(store, clock, { identity: 'b', ...timing });
  const results = await Promise.all([a.tryAcquireOrRenew(), b.tryAcquireOrRenew()]);
  t.deepEqual(
    results.filter((x) => x),
    [true],
  );
});

test('release hands over without waiting for the lease to expire', async (t) => {
  const store = new InMemoryLeaseStore();
  const clock = new FakeClock();
  const a = new LeaderElector(store, clock, { identity: 'a', ...timing });
  const b = new LeaderElector(store, clock, { identity: 'b', ...timing });
  t.true(await a.tryAcquireOrRenew());
  t.false(await b.tryAcquireOrRenew());
  await a.release();
  t.true(await b.tryAcquireOrRenew());
});

test('read errors are not leadership', async (t) => {
  const store = new InMemoryLeaseStore();
  const a = new LeaderElector(store, new FakeClock(), { identity: 'a', ...timing });
  store.failNext = new Error('connection refused');
  t.false(await a.tryAcquireOrRenew());
  store.failNext = new LeaseConflictError();
  t.false(await a.tryAcquireOrRenew());
  t.true(await a.tryAcquireOrRenew());
});

test('rejects timings that would let two leaders overlap', (t) => {
  t.throws(
    () =>
      new LeaderElector(new InMemoryLeaseStore(), new FakeClock(), {
        identity: 'a',
        leaseDurationMs: 1000,
        renewDeadlineMs: 1000,
        retryPeriodMs: 100,
      }),
    { message: /leaseDuration > renewDeadline > retryPeriod/ },
  );
});

/** Lets pending promise callbacks run (the fake clock fires its timers synchronously). */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

test('runLeadership: only one of two acts; when the leader stops, the other takes over', async (t) => {
  const fast = { leaseDurationMs: 400, renewDeadlineMs: 250, retryPeriodMs: 40 };
  const clock = new FakeClock();
  const store = new InMemoryLeaseStore();
  const acting = new Set<string>();
  let overlap = false;
  const run = (id: string, stop: AbortController): Promise<'lost' | 'stopped'> =>
    runLeadership({
      elector: new LeaderElector(store, clock, { identity: id, ...fast }),
      clock,
      timing: fast,
      callbacks: {
        onStartedLeading: () => {
          acting.add(id);
          if (acting.size > 1) overlap = true;
        },
        onStoppedLeading: () => acting.delete(id),
      },
      stop: stop.signal,
    });
  const stopA = new AbortController();
  const stopB = new AbortController();
  const a = run('a', stopA);
  await settle();
  const b = run('b', stopB);
  // Ten retry periods (with their jitter): a renews, b keeps finding a valid Lease held by a.
  for (let i = 0; i < 10; i++) {
    clock.advance(fast.retryPeriodMs * 1.2);
    await settle();
  }
  t.deepEqual([...acting], ['a']);
  stopA.abort();
  t.is(await a, 'stopped');
  clock.advance(fast.retryPeriodMs * 1.2); // b's next attempt finds the released Lease
  await settle();
  t.deepEqual([...acting], ['b']);
  stopB.abort();
  t.is(await b, 'stopped');
  t.false(overlap);
});

test('runLeadership: a leader whose renewals fail steps down at the renew deadline, before its Lease expires', async (t) => {
  const fast = { leaseDurationMs: 400, renewDeadlineMs: 200, retryPeriodMs: 30 };
  const clock = new FakeClock();
  const store = new InMemoryLeaseStore();
  let lostSignal = false;
  let outcome: string | undefined;
  const stop = new AbortController();
  void runLeadership({
    elector: new LeaderElector(store, clock, { identity: 'a', ...fast }),
    clock,
    timing: fast,
    callbacks: {
      onStartedLeading: (signal) => signal.addEventListener('abort', () => (lostSignal = true)),
      onStoppedLeading: () => undefined,
    },
    stop: stop.signal,
  }).then((o) => (outcome = o));
  await settle();
  const renewedAt = clock.now(); // the Lease was last written here: it expires at renewedAt + 400
  const failing = (): void => void (store.failNext = new Error('apiserver down'));
  failing();
  clock.advance(fast.retryPeriodMs); // the renew starts; each of its attempts fails
  await settle();
  for (let ms = 0; ms < fast.renewDeadlineMs - fast.retryPeriodMs; ms += fast.retryPeriodMs) {
    failing();
    clock.advance(fast.retryPeriodMs);
    await settle();
  }
  t.is(outcome, undefined, 'still leading within the renew deadline');
  failing();
  clock.advance(fast.retryPeriodMs);
  await settle();
  t.is(outcome, 'lost');
  t.true(lostSignal);
  t.true(clock.now() < renewedAt + fast.leaseDurationMs, 'stepped down before another could take over');
});

test('a Lease write the server refuses is an error in the log and reported once per reason; contention is not', async (t) => {
  const store = new InMemoryLeaseStore();
  const refusals: string[] = [];
  const errors: string[] = [];
  const logger = { ...silentLogger, error: (o: Record<string, unknown>) => errors.push(String(o['err'])) };
  const a = new LeaderElector(
    store,
    new FakeClock(),
    { identity: 'a', ...timing },
    {
      logger,
      onWriteRefused: (reason) => refusals.push(reason),
    },
  );
  const refuse = new Error(
    'HTTP-Code: 400 Lease in version "v1" cannot be handled: spec.renewTime: parsing time',
  );
  const create = store.create.bind(store);
  let failing = true;
  store.create = (r) => (failing ? Promise.reject(refuse) : create(r));
  t.false(await a.tryAcquireOrRenew());
  t.false(await a.tryAcquireOrRenew());
  t.deepEqual(refusals, [refuse.message], 'reported once, not on every retry');
  t.deepEqual(errors, [refuse.message]);
  failing = false;
  t.true(await a.tryAcquireOrRenew());
  const b = new LeaderElector(
    store,
    new FakeClock(),
    { identity: 'b', ...timing },
    {
      onWriteRefused: (reason) => refusals.push(reason),
    },
  );
  store.failNext = undefined;
  await a.release();
  const update = store.update.bind(store);
  store.update = () => Promise.reject(new LeaseConflictError());
  t.false(await b.tryAcquireOrRenew());
  store.update = update;
  t.is(refusals.length, 1, 'a 409 from another writer is contention, not a refusal');
});
