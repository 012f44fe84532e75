import test from 'ava';
import { FakeClock } from './fake-clock.js';
import { ExponentialFailureRateLimiter } from './rate-limiter.js';
import { WorkQueue, type WorkQueueLanes } from './work-queue.js';

/** Lanes by prefix (`maintain:x`), counting the questions, with a generation the test moves on. */
function countingLanes(
  withGeneration: boolean,
): WorkQueueLanes & { asked: number; generationNow: number; moved: Set<string> } {
  const l = {
    asked: 0,
    generationNow: 0,
    /** Keys now in the join lane whatever their prefix (their node went away). */
    moved: new Set<string>(),
    laneOf: (key: string): string => {
      l.asked++;
      return l.moved.has(key) ? 'join' : (key.split(':')[0] ?? '');
    },
    limits: { join: 5, maintain: 2 },
    ...(withGeneration ? { generation: (): number => l.generationNow } : {}),
  };
  return l;
}

/** A queue with its two maintain workers busy and `idle` workers waiting, as the instances queue at scale. */
function busyQueue(lanes: WorkQueueLanes, idle = 0): WorkQueue {
  const q = new WorkQueue(new FakeClock(), new ExponentialFailureRateLimiter(10, 1000), {}, lanes);
  q.add('maintain:a');
  q.add('maintain:b');
  q.tryGet();
  q.tryGet();
  // Workers of the join lane wait for work.
  for (let i = 0; i < idle; i++) void q.get();
  return q;
}

test('with a generation, each key added behind a full lane is asked about once, not the whole queue again', (t) => {
  const lanes = countingLanes(true);
  const q = busyQueue(lanes, 5);
  lanes.asked = 0;
  for (let i = 0; i < 500; i++) q.add(`maintain:n${i}`);
  t.is(q.length, 500);
  t.true(lanes.asked <= 500, `asked ${lanes.asked} times for 500 keys`);
});

test('without a generation the queue asks about every waiting key each time (the old scan)', (t) => {
  const lanes = countingLanes(false);
  const q = busyQueue(lanes, 5);
  lanes.asked = 0;
  for (let i = 0; i < 100; i++) q.add(`maintain:n${i}`);
  t.is(lanes.asked, (100 * 101) / 2);
});

test('a new generation asks again: a waiting key whose lane now has room is handed out', async (t) => {
  const lanes = countingLanes(true);
  const q = busyQueue(lanes);
  const worker = q.get();
  q.add('maintain:c');
  q.add('maintain:d');
  // Its node went away: maintain:d is a join now, but the queue does not know before the generation moves.
  lanes.moved.add('maintain:d');
  q.add('maintain:e');
  t.is(q.length, 3, 'nothing handed out while the generation holds');
  lanes.generationNow++;
  q.add('maintain:f');
  t.is(await worker, 'maintain:d');
  t.deepEqual([q.length, q.busyIn('join'), q.busyIn('maintain')], [3, 1, 2]);
});

test('a done key frees its lane and the keys found waiting behind it are looked at again', async (t) => {
  const lanes = countingLanes(true);
  const q = busyQueue(lanes);
  q.add('maintain:c');
  const worker = q.get();
  q.done('maintain:a');
  t.is(await worker, 'maintain:c');
  t.is(q.busyIn('maintain'), 2);
});

test('handing out a key looks at one key per lane, not at every key waiting in a full lane', (t) => {
  let looks = 0;
  const lanes: WorkQueueLanes = {
    laneOf: (key) => key.split(':')[0] ?? '',
    limits: { join: 5, maintain: 2 },
    // Every look at a waiting key's lane reads the generation: the count is the work per hand-out.
    generation: () => {
      looks++;
      return 0;
    },
  };
  const q = busyQueue(lanes);
  // 1,000 drift checks wait behind the two busy maintain workers; joins come and go in front of them.
  for (let i = 0; i < 1000; i++) q.add(`maintain:n${i}`);
  looks = 0;
  for (let i = 0; i < 100; i++) {
    q.add(`join:j${i}`);
    t.is(q.tryGet(), `join:j${i}`);
    q.done(`join:j${i}`);
  }
  t.is(q.length, 1000);
  t.true(looks <= 100 * 6, `${looks} looks for 100 joins handed out past 1,000 waiting keys`);
});
