import test from 'ava';
import { phaseIs, testWorld, until } from './world-fixture.js';

// Issue 28: a host that accepts SSH and then answers nothing held a join lane until the 15-minute command
// timeout, again on every retry; five such hosts kept every lane and an honest host never started. Now
// every request has a deadline, so a silent host costs a lane for that long and then backs off.

test('silent hosts hold a lane only for their deadline: an honest host listed after them joins', async (t) => {
  const { world } = await testWorld(
    [{ hostname: 'SILENT-1' }, { hostname: 'SILENT-2' }, { hostname: 'HONEST' }],
    {
      parallelJoins: 1,
    },
  );
  t.teardown(() => world.stop());
  const [silent1, silent2, honest] = world.hosts.hosts;
  for (const h of [silent1, silent2]) h!.sim.faults.silent = true;
  for (const h of world.hosts.hosts) world.hosts.setRequestDeadline(h.address, 1000);
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
  await world.startOperator();
  await until('the honest host Ready', phaseIs(world, honest!.address, 'Ready'), 120_000);
  for (const h of [silent1, silent2]) {
    const s = await until(
      `${h!.address} reports why`,
      async () => {
        const status = await world.status(h!.address);
        return status?.lastError?.includes('got no answer') ? status : undefined;
      },
      60_000,
    );
    t.not(s.phase, 'Ready');
    t.regex(s.lastError ?? '', /on .* got no answer within 1000 ms/);
  }
  // Once the host answers again, it joins.
  delete silent1!.sim.faults.silent;
  await until(
    'the first silent host Ready once it answers',
    phaseIs(world, silent1!.address, 'Ready'),
    120_000,
  );
  t.pass();
});
