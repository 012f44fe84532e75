import test from 'ava';
import { eventsAbout, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';

test.serial(
  'a DNS name that starts resolving to another machine is a host key mismatch, not a first use',
  async (t) => {
    const { world } = await testWorld([
      { hostname: 'WIN-NAMED', dnsName: 'win-named.sim.internal' },
      { hostname: 'WIN-OTHER' },
    ]);
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    const [named, other] = [world.hosts.hosts[0]!, world.hosts.hosts[1]!];
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await world.startOperator();
    await until('the named host Ready', phaseIs(world, named.address, 'Ready'), 90_000);

    // The DNS record now points at another machine, with another host key, never seen before.
    world.hosts.pointName('win-named.sim.internal', other.address);
    const mismatch = await until('the host key mismatch event', async () =>
      (await eventsAbout(world)).find(
        (e) =>
          e.reason === 'InstanceSetupFailure' && /presented SSH host key .* is pinned for it/.test(e.message),
      ),
    );
    t.regex(mismatch.message, new RegExp(other.address.replace(/\./g, '\\.')));
    t.false(other.sim.model.files.isDirectory('C:\\k'), 'nothing was written to the other machine');
    const names = (await windowsNodes(world)).map((n) => n.metadata?.name);
    t.deepEqual(names, ['win-named'], 'no node for the other machine, and the named host keeps its node');
  },
);
