// Issue 27 item 1: a node joined before records exist is migrated only when no other Node claims its
// address. The other claimant here is a compromised node (the attacker harness, its kubelet identity)
// that dropped its byoh label and lists the entry's address as an ExternalIP: the migration must see it
// (every Windows Node, every address type), report the ambiguity and make no record.
import test from 'ava';
import { NODE_RECORD_LABEL } from '@wmco/core/internal';
import { nodeAttacker } from './node-attacker.js';
import { apis, eventsAbout, NS, phaseIs, testWorld, until } from './world-fixture.js';

test.serial(
  'a pre-record node is not migrated while another Node, whatever its labels, lists its address',
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

    // As an operator before records left them; win-b's entry went while no operator ran.
    const { core } = apis(world);
    const recordsNow = async (): Promise<unknown[]> =>
      (await core.listNamespacedConfigMap({ namespace: NS, labelSelector: `${NODE_RECORD_LABEL}=true` }))
        .items;
    const recorded = (await core.listNamespacedConfigMap({
      namespace: NS,
      labelSelector: `${NODE_RECORD_LABEL}=true`,
    })) as { items: { metadata?: { name?: string } }[] };
    t.is(recorded.items.length, 2);
    for (const cm of recorded.items)
      await core.deleteNamespacedConfigMap({ name: cm.metadata?.name ?? '', namespace: NS });
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));

    // win-b, compromised: its kubelet stopped (so no heartbeat rewrites its addresses), its byoh label
    // dropped, and win-a's address added as an ExternalIP. All of it is what its own identity may write.
    const [a, b] = world.hosts.hosts;
    await b!.sim.model.scm.stop('kubelet');
    const attacker = await nodeAttacker(world, 'win-b', 1);
    await attacker.setLabels({ 'windowsmachineconfig.openshift.io/byoh': null });
    const current = await core.readNode({ name: 'win-b' });
    await attacker.setAddresses([
      ...(current.status?.addresses ?? []),
      { type: 'ExternalIP', address: a!.address },
    ]);

    await world.startOperator('wmco-1');
    const refusal = await until('win-a not migrated', async () =>
      (await eventsAbout(world)).find(
        (e) => e.reason === 'NodeRecordNotMigrated' && e.message.startsWith('Node win-a '),
      ),
    );
    t.regex(refusal.message, /node\(s\) win-b claim the same instance or address/);
    t.deepEqual(await recordsNow(), [], 'no record is made');
  },
);
