import test from 'ava';
import { EventLog, type StoreEvent } from './event-log.js';

const event = (rv: number): StoreEvent => ({ type: 'MODIFIED', rv, typeKey: 'v1/nodes', object: {} });

test('the log keeps at least its capacity, drops the oldest a tenth at a time, and refuses what it dropped', (t) => {
  const log = new EventLog(100);
  for (let rv = 1; rv <= 110; rv++) log.append(event(rv));
  t.is(log.size, 110, 'up to a tenth over capacity before a trim');
  t.notThrows(() => log.since(0, 'v1/nodes'));
  log.append(event(111));
  t.is(log.size, 100, 'trimmed back to capacity at once');
  t.is(log.oldestValid, 11);
  t.throws(() => log.since(10, 'v1/nodes'), { message: /too old resource version: 10/ });
  t.deepEqual(
    log.since(11, 'v1/nodes').map((e) => e.rv),
    Array.from({ length: 100 }, (_, i) => 12 + i),
  );
  for (let rv = 112; rv <= 1000; rv++) log.append(event(rv));
  t.true(log.size >= 100 && log.size <= 110, `bounded (${log.size})`);
  t.is(
    log.since(log.oldestValid, 'v1/nodes').length,
    log.size,
    'every event after the oldest valid one is kept',
  );
});
