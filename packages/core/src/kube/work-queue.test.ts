import test from 'ava';
import { FakeClock } from './fake-clock.js';
import { ExponentialFailureRateLimiter, defaultControllerRateLimiter } from './rate-limiter.js';
import { WorkQueue } from './work-queue.js';

const make = () => {
  const clock = new FakeClock();
  return { clock, q: new WorkQueue(clock, new ExponentialFailureRateLimiter(10, 1000)) };
};

test('de-duplicates keys waiting in the queue', async (t) => {
  const { q } = make();
  q.add('a');
  q.add('b');
  q.add('a');
  t.is(q.length, 2);
  t.is(await q.get(), 'a');
  t.is(await q.get(), 'b');
});

test('a key being processed is not handed out again, and is re-queued once at done', async (t) => {
  const { q } = make();
  q.add('a');
  const key = await q.get();
  t.is(key, 'a');
  q.add('a');
  q.add('a');
  t.is(q.length, 0, 'not queued while processing');
  q.done('a');
  t.is(q.length, 1);
  t.is(await q.get(), 'a');
  q.done('a');
  t.is(q.length, 0);
});

test('get waits for the next add', async (t) => {
  const { q } = make();
  const pending = q.get();
  q.add('x');
  t.is(await pending, 'x');
  t.true(q.isProcessing('x'));
});

test('addAfter delays, and the earlier of two delays wins', async (t) => {
  const { q, clock } = make();
  q.addAfter('k', 500);
  q.addAfter('k', 100);
  q.addAfter('k', 900);
  clock.advance(99);
  t.is(q.length, 0);
  clock.advance(1);
  t.is(q.length, 1);
  t.is(await q.get(), 'k');
  clock.advance(1000);
  t.is(q.length, 0, 'the later timers were dropped');
});

test('addRateLimited backs off exponentially per key until forget', async (t) => {
  const { q, clock } = make();
  const waits: number[] = [];
  for (let i = 0; i < 4; i++) {
    const before = clock.now();
    q.addRateLimited('k');
    let waited = 0;
    for (let guard = 0; q.length === 0 && guard < 10_000; guard++) {
      clock.advance(1);
      waited = clock.now() - before;
    }
    waits.push(waited);
    q.done((await q.get())!);
  }
  t.deepEqual(waits, [10, 20, 40, 80]);
  t.is(q.numRequeues('k'), 4);
  q.forget('k');
  t.is(q.numRequeues('k'), 0);
});

test('backoff is capped', (t) => {
  const limiter = new ExponentialFailureRateLimiter(10, 1000);
  const waits = Array.from({ length: 12 }, () => limiter.when('k'));
  t.is(waits.at(-1), 1000);
  t.true(waits.every((w) => w <= 1000));
});

test('the default limiter adds a global bucket once the burst is used up', (t) => {
  const clock = new FakeClock();
  const limiter = defaultControllerRateLimiter(clock);
  const first = Array.from({ length: 100 }, (_, i) => limiter.when(`k${i}`));
  t.true(
    first.every((w) => w === 5),
    'within the burst only the per-key base applies',
  );
  t.true(limiter.when('k-extra') >= 100, 'past the burst: 10 qps');
});

test('shutDown releases waiters and drops delayed keys', async (t) => {
  const { q, clock } = make();
  const waiting = q.get();
  q.addAfter('later', 100);
  q.shutDown();
  t.is(await waiting, undefined);
  clock.advance(1000);
  t.is(q.length, 0);
  t.is(clock.pendingTimers, 0);
  q.add('after-shutdown');
  t.is(await q.get(), undefined);
});

test('shutDownWithDrain resolves when in-flight keys are done', async (t) => {
  const { q } = make();
  q.add('a');
  await q.get();
  let drained = false;
  const p = q.shutDownWithDrain().then(() => (drained = true));
  await Promise.resolve();
  t.false(drained);
  q.done('a');
  await p;
  t.true(drained);
});

test('reports metrics', async (t) => {
  const clock = new FakeClock();
  const seen: string[] = [];
  const q = new WorkQueue(clock, new ExponentialFailureRateLimiter(), {
    added: () => seen.push('added'),
    retried: () => seen.push('retried'),
    queueLatencyMs: (ms) => seen.push(`latency:${ms}`),
    workDurationMs: (ms) => seen.push(`work:${ms}`),
  });
  q.add('a');
  clock.advance(7);
  await q.get();
  clock.advance(3);
  q.done('a');
  q.addRateLimited('a');
  t.deepEqual(seen, ['added', 'latency:7', 'work:3', 'retried']);
});
