import test from 'ava';
import { Controller, type Reconciler } from './controller.js';
import { systemClock } from './clock.js';
import { ExponentialFailureRateLimiter } from './rate-limiter.js';
import { WorkQueue } from './work-queue.js';

const queue = () => new WorkQueue(systemClock, new ExponentialFailureRateLimiter(1, 20));
const until = async (cond: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 2));
};

test('processes different keys in parallel, up to the worker count, never one key twice at once', async (t) => {
  let running = 0;
  let peak = 0;
  const perKey = new Map<string, number>();
  let sameKeyOverlap = false;
  const reconciler: Reconciler = {
    name: 'test',
    async reconcile(key) {
      running++;
      peak = Math.max(peak, running);
      perKey.set(key, (perKey.get(key) ?? 0) + 1);
      if ((perKey.get(key) ?? 0) > 1) sameKeyOverlap = true;
      await new Promise((r) => setTimeout(r, 20));
      perKey.set(key, (perKey.get(key) ?? 1) - 1);
      running--;
      return undefined;
    },
  };
  const q = queue();
  const c = new Controller(reconciler, q, { workers: 3 });
  c.start();
  for (const k of ['a', 'b', 'c', 'd', 'e', 'a', 'a']) q.add(k);
  setTimeout(() => q.add('a'), 5);
  await until(() => q.length === 0 && running === 0, 3000);
  await new Promise((r) => setTimeout(r, 50));
  await c.stop();
  t.is(peak, 3);
  t.false(sameKeyOverlap);
});

test('retries a failing key with backoff until it succeeds, then forgets it', async (t) => {
  let attempts = 0;
  const q = queue();
  const c = new Controller(
    {
      name: 'flaky',
      reconcile() {
        attempts++;
        return attempts < 4 ? Promise.reject(new Error('boom')) : Promise.resolve(undefined);
      },
    },
    q,
    { workers: 1 },
  );
  c.start();
  q.add('k');
  await until(() => attempts >= 4);
  await new Promise((r) => setTimeout(r, 30));
  await c.stop();
  t.is(attempts, 4);
  t.is(q.numRequeues('k'), 0);
});

test('requeueAfterMs brings the key back', async (t) => {
  let calls = 0;
  const q = queue();
  const c = new Controller(
    {
      name: 'poll',
      reconcile() {
        calls++;
        return Promise.resolve(calls < 3 ? { requeueAfterMs: 5 } : undefined);
      },
    },
    q,
    { workers: 1 },
  );
  c.start();
  q.add('k');
  await until(() => calls >= 3);
  await c.stop();
  t.is(calls, 3);
});

test('stop aborts in-flight work and waits for it', async (t) => {
  let sawAbort = false;
  let finished = false;
  const q = queue();
  const c = new Controller(
    {
      name: 'slow',
      async reconcile(_key, signal) {
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
        sawAbort = signal.aborted;
        finished = true;
        return undefined;
      },
    },
    q,
    { workers: 1 },
  );
  c.start();
  q.add('k');
  await until(() => q.isProcessing('k'));
  await c.stop();
  t.true(sawAbort);
  t.true(finished);
});

test('a failed key tells its reconciler the backoff before it is tried again', async (t) => {
  const told: [string, number][] = [];
  let attempts = 0;
  const q = new WorkQueue(systemClock, new ExponentialFailureRateLimiter(5, 1000));
  const c = new Controller(
    {
      name: 'failing',
      reconcile() {
        attempts++;
        return attempts < 3 ? Promise.reject(new Error('boom')) : Promise.resolve(undefined);
      },
      retrying(key: string, delayMs: number) {
        told.push([key, delayMs]);
        return Promise.resolve();
      },
    },
    q,
    { workers: 1 },
  );
  c.start();
  q.add('k');
  await until(() => attempts >= 3);
  await c.stop();
  t.deepEqual(told, [
    ['k', 5],
    ['k', 10],
  ]);
});
