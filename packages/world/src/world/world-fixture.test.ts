import test from 'ava';
import { until } from './world-fixture.js';

test('until fails by its deadline, naming what it waited for, when a probe never settles', async (t) => {
  const started = Date.now();
  await t.throwsAsync(
    until('a call nobody answers', () => new Promise<undefined>(() => undefined), 300, 20),
    { message: 'timed out waiting for a call nobody answers' },
  );
  // Not before its deadline (timers never fire early); how long after depends on the machine's load, and a
  // wait that never ended would fail the test at ava's timeout.
  const ms = Date.now() - started;
  t.true(ms >= 300, `${ms} ms`);
});

test('until returns the first value a probe gives, and counts a failing probe as no answer', async (t) => {
  let calls = 0;
  const v = await until(
    'the third call',
    () => {
      calls++;
      if (calls === 1) return Promise.reject(new Error('not yet'));
      return Promise.resolve(calls === 3 ? 'ready' : undefined);
    },
    5_000,
    5,
  );
  t.is(v, 'ready');
  t.is(calls, 3);
});
