import test from 'ava';
import { leaseHolder, usurpLease } from '../world/lease-usurp.js';
import { phaseIs, testWorld, until } from '../world/world-fixture.js';
import { LeadingOperator } from './leading-operator.js';

test('an operator that loses its Lease is replaced by one that leads and finishes the join', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-LEAD' }]);
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  const lines: string[] = [];
  const op = new LeadingOperator(world, 'wmco-s', {}, (l) => lines.push(l));
  t.teardown(() => op.stop());
  const first = await op.runtime();
  await until('the first operator leads', () => Promise.resolve(first.leading ? true : undefined));

  // Another holder takes the Lease for 2 s, as after a partition; the first operator's term ends 'lost'.
  await usurpLease(world, 'elsewhere', 2);
  t.is(await first.done, 'lost');
  const second = await until('a replacement', async () => {
    const rt = await op.runtime();
    return rt !== first ? rt : undefined;
  });
  t.is(op.restarts, 1);
  t.deepEqual(lines, ['wmco-s lost its Lease; starting replacement 1']);
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await until(
    'the replacement joins the host',
    phaseIs(world, world.hosts.hosts[0]!.address, 'Ready'),
    120_000,
  );
  t.true(second.leading);
  t.is(await leaseHolder(world), 'wmco-s-1');
});

test('a stopped operator is not replaced', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-STOP' }]);
  t.teardown(() => world.stop());
  const op = new LeadingOperator(world, 'wmco-t', {}, () => undefined);
  const rt = await op.runtime();
  await op.stop();
  t.is(await rt.done, 'stopped');
  t.is(await op.runtime(), rt);
  t.is(op.restarts, 0);
});
