import test from 'ava';
import { logOnFailure } from './log-on-failure.test-helper.js';

test('a failing body logs the last operator log lines and fails as it did; a passing one logs nothing', async (t) => {
  const logged: string[] = [];
  const fake = { log: (m: string): void => void logged.push(m) };
  const logs = ['one', 'two', 'three'];
  t.is(await logOnFailure(fake, logs, () => Promise.resolve(7)), 7);
  t.deepEqual(logged, []);
  const err = await t.throwsAsync(logOnFailure(fake, logs, () => Promise.reject(new Error('timed out')), 2));
  t.is(err.message, 'timed out');
  t.deepEqual(logged, ["the operator's last 2 log lines:\ntwo\nthree"]);
});
