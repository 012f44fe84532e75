import test from 'ava';
import { settledWithin } from './settled-within.js';
import { leaseHolder, usurpLease } from './lease-usurp.js';
import { phaseIs, testWorld, until } from './world-fixture.js';

// Issue 28: a leader whose Lease another holder takes while a join is in flight stops at once: its
// leadership ends 'lost' (`wmco run` then exits 1, leader-lost-exit.e2e), no host operation of its own
// starts after that, and the new holder finishes the join.

test('a Lease taken over mid-join: the first operator stops acting on the host, the second completes the join', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-TAKEN' }], { costs: { powershellStartMs: 300 } });
  t.teardown(() => world.stop());
  const host = world.hosts.hosts[0]!;
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  const a = await world.startOperator('wmco-a');
  await until('the join under way on the host', async () =>
    (await phaseIs(world, host.address, 'Configuring')()) && host.sim.stats.execs > 0 ? true : undefined,
  );
  // Another replica's identity is written into the Lease, as after a partition healed in its favour.
  await usurpLease(world, 'wmco-b', 60);
  const outcome = await settledWithin(a.done, 60_000);
  t.deepEqual(outcome, { ok: true, value: 'lost' });
  const stopped = await settledWithin(a.stop(), 60_000);
  t.not(stopped, 'late', 'the deposed operator stopped');
  t.false(a.leading);
  // An exec or SFTP request the operator wrote before the loss may still be read by the host after its
  // stop (the host reads its socket later on a busy machine; beside a CPU hog CI saw one): what must not
  // happen is a new step, and every step needs a connection. Once the connections are gone, none opens.
  const accepted = host.sim.stats.connectionsAccepted;
  await until('the deposed operator holds no connection to the host', () =>
    Promise.resolve(host.sim.openConnections === 0 ? true : undefined),
  );
  const ops = (): number =>
    host.sim.stats.connectionsAccepted + host.sim.stats.execs + host.sim.stats.sftpRequests;
  const drained = ops();
  t.is(host.sim.stats.connectionsAccepted, accepted, 'no connection to the host after the stop');
  await until('the Lease still held by the other holder', async () =>
    (await leaseHolder(world)) === 'wmco-b' ? true : undefined,
  );
  t.is(ops(), drained, 'no host operation after the loss');
  // The new holder (its identity is the one in the Lease) leads and completes the join.
  const b = await world.startOperator('wmco-b');
  await until('the join completed by the new leader', phaseIs(world, host.address, 'Ready'), 120_000);
  t.true(b.leading);
});
