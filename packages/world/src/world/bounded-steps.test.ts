import test from 'ava';
import { boundedSteps } from './bounded-steps.js';

test('every step runs in order; one that hangs is named and left behind, the next still runs', async (t) => {
  const ran: string[] = [];
  // The stuck step never settles: reaching the end at all shows it was left behind at its bound.
  const err = await t.throwsAsync(
    boundedSteps(
      [
        ['the first', () => Promise.resolve(void ran.push('first'))],
        ['the stuck one', () => new Promise(() => void ran.push('stuck'))],
        ['the failing one', () => Promise.reject(new Error('boom'))],
        ['the last', () => Promise.resolve(void ran.push('last'))],
      ],
      200,
    ),
  );
  t.deepEqual(ran, ['first', 'stuck', 'last']);
  t.is(
    err.message,
    'stopping the simulated world: the stuck one did not finish within 200 ms; the failing one failed: boom',
  );
});

test('steps that all finish end quietly', async (t) => {
  await t.notThrowsAsync(boundedSteps([['a', () => Promise.resolve()]], 200));
});
