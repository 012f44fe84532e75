import test from 'ava';
import { FakeClock } from './fake-clock.js';
import { ExponentialFailureRateLimiter } from './rate-limiter.js';
import { WorkQueue } from './work-queue.js';

const lanes = {
  laneOf: (key: string): string => key.split(':')[0] ?? '',
  limits: { join: 2, remove: 1 },
};
const make = (): WorkQueue =>
  new WorkQueue(new FakeClock(), new ExponentialFailureRateLimiter(10, 1000), {}, lanes);

/** Takes every key the queue hands out now (without waiting). */
function takeAll(q: WorkQueue): string[] {
  const out: string[] = [];
  for (let k = q.tryGet(); k !== undefined; k = q.tryGet()) out.push(k);
  return out;
}

test('a full lane does not block keys of other lanes queued behind it', (t) => {
  const q = make();
  for (const k of ['join:a', 'join:b', 'join:c', 'join:d', 'remove:x', 'drift:y']) q.add(k);
  t.deepEqual(takeAll(q), ['join:a', 'join:b', 'remove:x', 'drift:y']);
  t.is(q.busyIn('join'), 2);
  t.is(q.length, 2, 'join:c and join:d wait for room in their lane');
});

test('done frees room in the lane and hands the next key of that lane to a waiting worker', async (t) => {
  const q = make();
  ['join:a', 'join:b', 'join:c'].forEach((k) => q.add(k));
  t.deepEqual(takeAll(q), ['join:a', 'join:b']);
  const waiting = q.get();
  q.done('join:a');
  t.is(await waiting, 'join:c');
  t.is(q.busyIn('join'), 2);
});

test('a waiting worker gets a key of a lane with room at once', async (t) => {
  const q = make();
  ['join:a', 'join:b'].forEach((k) => q.add(k));
  takeAll(q);
  const waiting = q.get();
  q.add('join:c'); // no room
  q.add('remove:x');
  t.is(await waiting, 'remove:x');
});

test('the lane is the one a key was handed out in, even if its classification changes meanwhile', async (t) => {
  let joinLane = true;
  const q = new WorkQueue(
    new FakeClock(),
    new ExponentialFailureRateLimiter(10, 1000),
    {},
    {
      laneOf: () => (joinLane ? 'join' : 'drift'),
      limits: { join: 1 },
    },
  );
  q.add('k');
  t.is(await q.get(), 'k');
  joinLane = false;
  q.done('k');
  t.is(q.busyIn('join'), 0);
  t.is(q.busyIn('drift'), 0);
});

test('without lanes the queue is first in, first out as before', (t) => {
  const q = new WorkQueue(new FakeClock(), new ExponentialFailureRateLimiter(10, 1000));
  ['join:a', 'join:b', 'join:c'].forEach((k) => q.add(k));
  t.deepEqual(takeAll(q), ['join:a', 'join:b', 'join:c']);
});
