import test from 'ava';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CoalescedCall } from './coalesced-call.js';

test('requests made in one turn run the call once, after that turn', async (t) => {
  let runs = 0;
  const call = new CoalescedCall(() => runs++);
  for (let i = 0; i < 2000; i++) call.request();
  t.is(runs, 0, 'not run inside the burst');
  await nextTurn();
  t.is(runs, 1);
});

test('a request after a run asks for another run', async (t) => {
  let runs = 0;
  const call = new CoalescedCall(() => runs++);
  call.request();
  await nextTurn();
  call.request();
  call.request();
  await nextTurn();
  t.is(runs, 2);
});

test('cancel drops the pending run and every later request', async (t) => {
  let runs = 0;
  const call = new CoalescedCall(() => runs++);
  call.request();
  call.cancel();
  call.request();
  await nextTurn();
  await nextTurn();
  t.is(runs, 0);
});
