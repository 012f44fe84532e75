import test from 'ava';
import { decodeNodeRecord, NODE_RECORD_LABEL } from '@wmco/core/internal';
import { apis, eventsAbout, NS, phaseIs, testWorld, until } from './world-fixture.js';

test.serial(
  'nodes joined before records: one whose data agrees is recorded and later removed; one that does not is reported and never removed',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-A' }, { hostname: 'WIN-B' }], {
      driftRepairIntervalMs: 0,
    });
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
    const first = await world.startOperator('wmco-0');
    for (const h of world.hosts.hosts)
      await until(`${h.address} Ready`, phaseIs(world, h.address, 'Ready'), 90_000);
    await first.stop();

    // As an operator before records left them: no record. And win-b's entry went while no operator ran.
    const { core } = apis(world);
    const listed = await core.listNamespacedConfigMap({
      namespace: NS,
      labelSelector: `${NODE_RECORD_LABEL}=true`,
    });
    t.is(listed.items.length, 2);
    for (const cm of listed.items)
      await core.deleteNamespacedConfigMap({ name: cm.metadata?.name ?? '', namespace: NS });
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));

    await world.startOperator('wmco-1');
    const records = await until('win-a recorded again', async () => {
      const l = await core.listNamespacedConfigMap({
        namespace: NS,
        labelSelector: `${NODE_RECORD_LABEL}=true`,
      });
      const r = l.items.map((cm) => decodeNodeRecord(cm));
      return r.length > 0 ? r : undefined;
    });
    t.deepEqual(
      records.map((r) => [r?.nodeName, r?.address, r?.migrated]),
      [['win-a', world.hosts.hosts[0]?.address, true]],
    );
    const refusal = await until('win-b not migrated', async () =>
      (await eventsAbout(world)).find(
        (e) => e.reason === 'NodeRecordNotMigrated' && e.message.startsWith('Node win-b '),
      ),
    );
    t.regex(refusal.message, /windows-instances has no entry/);

    // win-a's entry removed: it is given back through its record; win-b is reported and left as it is.
    await world.setInstances({});
    await until('win-a removed', async () =>
      (await core.listNode()).items.some((n) => n.metadata?.name === 'win-a') ? undefined : true,
    );
    t.false(world.hosts.hosts[0]?.sim.model.files.isDirectory('C:\\k'), 'win-a deconfigured');
    await until('win-b reported', async () =>
      (await eventsAbout(world)).find(
        (e) => e.reason === 'NodeNotRecorded' && e.message.startsWith('Node win-b '),
      ),
    );
    t.true(
      (await core.listNode()).items.some((n) => n.metadata?.name === 'win-b'),
      'win-b is not removed',
    );
    t.true(world.hosts.hosts[1]?.sim.model.files.isDirectory('C:\\k'), 'nor deconfigured');
  },
);
