import test from 'ava';
import { joinLimit, LimitNotALowerBoundError } from './join-limit.js';

test("the limit is the larger of the critical path and all bytes through this machine's SSH", (t) => {
  t.deepEqual(joinLimit(3, 100e6, 200e6), {
    seconds: 3,
    criticalPath: 3,
    encryption: 0.5,
    bound: 'critical path',
  });
  const many = joinLimit(3, 50 * 150e6, 200e6);
  t.is(many.seconds, 37.5);
  t.is(many.bound, 'SSH throughput');
});

test('the error for a join that beats its limit names the limit as wrong', (t) => {
  const e = new LimitNotALowerBoundError('1 host(s): 1 s limit 2 s');
  t.regex(e.message, /limit is wrong.*1 host\(s\): 1 s limit 2 s/);
});
