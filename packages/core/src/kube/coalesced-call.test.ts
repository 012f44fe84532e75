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

test('with a minimum interval, requests soon after a run wait for it, all covered by one run', async (t) => {
  const runs: number[] = [];
  let second: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (second = resolve));
  const call = new CoalescedCall(() => {
    runs.push(performance.now());
    if (runs.length === 2) second();
  }, 200);
  call.request();
  await nextTurn();
  t.is(runs.length, 1, 'the first request after a quiet spell runs at the next turn');
  for (let i = 0; i < 100; i++) call.request();
  await nextTurn();
  t.is(runs.length, 1, 'not again within the interval');
  await done;
  t.is(runs.length, 2);
  // A timer may fire late on a busy machine, or a little early (it counts from the event loop's cached
  // time): the call waits out the rest, so the runs are never closer than the interval (less the moment
  // between the call noting a run's time and the run noting its own).
  t.true(runs[1]! - runs[0]! >= 199.9, `${runs[1]! - runs[0]!} ms apart`);
});
