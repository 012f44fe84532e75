import test from 'ava';
import { RequestLog } from './request-log.js';

const request = (i: number): { method: string; path: string; watch: boolean; user: string } => ({
  method: 'GET',
  path: `/api/v1/nodes/n${i}`,
  watch: false,
  user: 'admin',
});

test('the log keeps at least its limit, drops the oldest a tenth at a time, and counts every request', (t) => {
  const log = new RequestLog(100);
  for (let i = 1; i <= 110; i++) log.record(request(i));
  t.is(log.size, 110, 'up to a tenth over the limit before a trim');
  log.record(request(111));
  t.is(log.size, 100);
  t.is(log.total, 111);
  t.deepEqual(
    log.since(105).map((r) => r.path),
    Array.from({ length: 6 }, (_, i) => `/api/v1/nodes/n${106 + i}`),
  );
  t.is(log.since(0).length, 100, 'what was dropped is no longer returned');
  t.is(log.since(0)[0]?.path, '/api/v1/nodes/n12');
  for (let i = 112; i <= 1000; i++) log.record(request(i));
  t.true(log.size >= 100 && log.size <= 110, `bounded (${log.size})`);
  t.is(log.since(995).length, 5);
});
