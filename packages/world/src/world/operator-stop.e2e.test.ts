import test from 'ava';
import { phaseIs, testWorld, until } from './world-fixture.js';

// An operator that stops (SIGTERM, or a lost Lease) waits for its in-flight reconciles. A join still
// trying to reach a host must give up at once then, not at its connect deadline (10 min by default).
// Here that deadline is an hour: only the stop's abort can end the join, and a stop that waited for it
// would be cut at its bound per part (20 s), which logs the part that overran.

test('the operator stops at once while a join still tries to connect to a host that refuses', async (t) => {
  const { world, logs } = await testWorld([]);
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  const op = await world.startOperator();
  // Nothing listens there: every attempt is refused, and the join retries until its deadline.
  const address = '127.77.0.9';
  world.hosts.setConnectDeadline(address, 3_600_000);
  await world.setInstances({ [address]: 'username=Administrator' });
  await until('the join under way', phaseIs(world, address, 'Configuring'));
  await until('a refused attempt and a retry', () =>
    Promise.resolve(logs.some((l) => l.includes('ssh connect failed; retrying')) || undefined),
  );
  await op.stop();
  t.false(
    logs.some((l) => l.includes('stop overran its bound')),
    'every part stopped by itself',
  );
  t.true(logs.some((l) => l.includes('join interrupted; it resumes when an operator leads again')));
  t.not((await world.status(address))?.phase, 'Failed', 'an interrupted join is not a failed one');
});
