import test from 'ava';
import { DEFAULT_HOST_COSTS, FREE_HOST_COSTS } from '@wmco/sim';
import { joinLimit, ms, parallelLimit } from './join-limit.js';

test('the join limit adds PowerShell starts, service starts, round trips and transfer', (t) => {
  const limit = joinLimit(
    { powershellStarts: 10, execs: 20, serviceStarts: 6, bytes: 125_000_000 },
    DEFAULT_HOST_COSTS,
  );
  t.deepEqual(limit.parts, { powershell: 5, services: 1.2, roundTrips: 0.02, transfer: 1 });
  t.is(ms(limit.seconds), 7.22);
});

test('on a free host the limit is zero; N hosts take ceil(N / parallel) slots', (t) => {
  t.is(
    joinLimit({ powershellStarts: 10, execs: 20, serviceStarts: 6, bytes: 1e9 }, FREE_HOST_COSTS).seconds,
    0,
  );
  t.is(parallelLimit(2, 10, 5), 4);
  t.is(parallelLimit(2, 10, 3), 8);
  t.is(parallelLimit(2, 1, 5), 2);
  t.is(parallelLimit(2, 3, 0), 6, 'a parallelism below one counts as one');
});
