// Issue 16, `pnpm bench join`: no idle waiting between the bootstrap apply and Ready. The join's waits
// for its Node end on the Windows nodes informer's events, not on a poll; a node that has just joined is
// not looked at again at once (nor whenever another Node changes); a configuration change still is.
import test from 'ava';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { apis, phaseIs, testWorld, until } from './world-fixture.js';

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

test.serial(
  'the join sees its Node on the watch: with a Node poll of 10 minutes it is Ready at once',
  async (t) => {
    // The kubelet registers 300 ms after its certificate, so the operator's first read misses the Node:
    // only a watch event can end that wait before the next read, 10 minutes later.
    const { world } = await testWorld([{ hostname: 'WIN-A', kubelet: { registerDelayMs: 300 } }], {
      driftRepairIntervalMs: 0,
      nodePollMs: 600_000,
    });
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    const a = world.hosts.hosts[0]!;
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await world.startOperator();
    const ready = await until(`${a.address} Ready`, phaseIs(world, a.address, 'Ready'), 90_000);
    t.true(
      (ready.phaseSeconds.WaitingForNode ?? 0) < 60,
      `waited ${ready.phaseSeconds.WaitingForNode}s for the Node`,
    );
    const node = await apis(world).core.readNode({ name: 'win-a' });
    t.falsy(node.spec?.unschedulable, 'uncordoned');
    t.is(node.metadata?.labels?.['node-role.kubernetes.io/worker'], '');
  },
);

test.serial(
  'a node that has just joined is not checked again at once, nor when the other joins change their Nodes; a configuration change checks each node once',
  async (t) => {
    const { world, logs } = await testWorld(
      [{ hostname: 'WIN-A' }, { hostname: 'WIN-B' }, { hostname: 'WIN-C' }],
      { driftRepairIntervalMs: 600_000 },
    );
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    const op = await world.startOperator();
    // At start the operator creates its trusted-ca ConfigMap, a configuration change of its own: the joins
    // begin after it, as in `pnpm bench join` (a join that read the configuration before a change is
    // checked right after it, rightly).
    await until('the operator, synced, saw its trusted-ca', () =>
      Promise.resolve(
        op.leading &&
          op.synced &&
          logs.some((l) => l.includes('cluster configuration changed') && l.includes('trusted-ca'))
          ? true
          : undefined,
      ),
    );
    // Each join's writes (the Node, its cordon, labels, version) put every entry on the queue again.
    await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
    for (const h of world.hosts.hosts)
      await until(`${h.address} Ready`, phaseIs(world, h.address, 'Ready'), 90_000);
    const ops = (): string[][] => world.hosts.hosts.map((h) => h.sim.invocations.map((i) => i.op));
    // A join's six calls: before the Node; the first node services (ADR 0030); the rest.
    const JOIN = ['observe', 'apply', 'observe', 'apply', 'observe', 'apply'];
    for (const [i, o] of ops().entries()) t.deepEqual(o, JOIN, `host ${i}: the join's six calls, no check`);
    // A change the nodes' files follow (the pull secret: mirror credentials) is looked at on every node.
    await apis(world).core.patchNamespacedSecret(
      {
        name: 'pull-secret',
        namespace: 'openshift-config',
        body: { metadata: { annotations: { 'test/touched': 'yes' } } },
      },
      mergePatch,
    );
    await until('a check of every node', () =>
      Promise.resolve(ops().every((o) => o.length >= JOIN.length + 1) ? true : undefined),
    );
    for (const [i, o] of ops().entries()) t.deepEqual(o, [...JOIN, 'observe'], `host ${i}: one check, clean`);
  },
);
