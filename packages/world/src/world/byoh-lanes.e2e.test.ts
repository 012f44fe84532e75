import test from 'ava';
import { NS, testWorld, phaseIs, until, windowsNodes } from './world-fixture.js';
import type { SimWorld } from './sim-world.js';

/** Replaces the windows-instances data in place (no delete, so no entry disappears in between). */
async function replaceInstances(world: SimWorld, data: Record<string, string>): Promise<void> {
  const api = world.admin();
  const cm = await api.readNamespacedConfigMap({ name: 'windows-instances', namespace: NS });
  await api.replaceNamespacedConfigMap({ name: 'windows-instances', namespace: NS, body: { ...cm, data } });
}

test.serial(
  'a host that does not answer holds only the join lane: a removal goes ahead meanwhile',
  async (t) => {
    // One join at a time: before the lanes, this was the only worker of the instances queue.
    const { world } = await testWorld([{ hostname: 'WIN-LEAVING' }], { parallelJoins: 1 });
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    const leaving = world.hosts.hosts[0]!;
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await world.startOperator();
    await until('the host Ready', phaseIs(world, leaving.address, 'Ready'), 90_000);

    // Nothing listens here: the join retries connecting until its deadline, an hour here, so the join
    // holds its lane for the whole test: a removal that waited for the lane would never come.
    const dead = '127.1.2.3';
    world.hosts.setConnectDeadline(dead, 3_600_000);
    await replaceInstances(world, {
      ...Object.fromEntries([world.hosts.entry(0)]),
      [dead]: 'username=Administrator',
    });
    const trying = async (): Promise<true | undefined> =>
      ['Connecting', 'Configuring'].includes((await world.status(dead))?.phase ?? '') ? true : undefined;
    await until('the join to the dead host trying to connect', trying);

    await replaceInstances(world, { [dead]: 'username=Administrator' });
    await until(
      'the leaving node removed',
      async () =>
        (await windowsNodes(world)).some((n) => n.metadata?.name === 'win-leaving') ? undefined : true,
      180_000,
    );
    t.true(await trying(), 'the join to the dead host has not given up yet');
    t.false(leaving.sim.model.files.isDirectory('C:\\k'), 'the leaving host was deconfigured');
  },
);
