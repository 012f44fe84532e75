import test from 'ava';
import { once } from 'node:events';
import { whileWanted } from './while-wanted.js';

test('the signal aborts once the work is no longer wanted, and says so', async (t) => {
  let wanted = true;
  const w = whileWanted(() => wanted, new AbortController().signal, 5);
  t.teardown(() => w.dispose());
  t.false(w.signal.aborted);
  wanted = false;
  await once(w.signal, 'abort');
  t.true(w.unwanted());
});

test("the caller's abort passes through and is not taken for an unwanted Machine", (t) => {
  const caller = new AbortController();
  const w = whileWanted(() => true, caller.signal, 5);
  t.teardown(() => w.dispose());
  caller.abort();
  t.true(w.signal.aborted);
  t.false(w.unwanted());
});
