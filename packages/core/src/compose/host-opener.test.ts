import test from 'ava';
import { withConnectDeadline } from './host-opener.js';

test('the shorter connect deadline wins; none set leaves the adapter default', (t) => {
  t.deepEqual(withConnectDeadline(60_000, { connectDeadlineMs: 10_000, retryMaxMs: 5 }), {
    connectDeadlineMs: 10_000,
    retryMaxMs: 5,
  });
  t.deepEqual(withConnectDeadline(60_000, { connectDeadlineMs: 600_000 }), { connectDeadlineMs: 60_000 });
  t.deepEqual(withConnectDeadline(60_000), { connectDeadlineMs: 60_000 });
  t.deepEqual(withConnectDeadline(undefined, { port: 2222 }), { port: 2222 });
  t.deepEqual(withConnectDeadline(undefined), {});
});
