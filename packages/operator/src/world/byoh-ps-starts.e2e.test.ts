// Issue 16 items 3 and 5: PowerShell starts per fresh join and per drift check, counted by the simulated hosts.
import test from 'ava';
import { joinAll, testWorld } from './world-fixture.js';

test.serial('a fresh join costs at most 4 PowerShell starts, with or without the Containers feature', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-A' }, { hostname: 'WIN-B', containersFeature: false }]);
  t.teardown(() => world.stop());
  await joinAll(world);
  for (const h of world.hosts.hosts) {
    t.log(h.address, h.sim.stats.powershellStarts, h.sim.invocations.map((i) => i.op).join(','));
  }
  t.pass();
});
