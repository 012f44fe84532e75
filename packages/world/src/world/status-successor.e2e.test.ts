import test from 'ava';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { settled } from './machine-wait.js';
import type { SimWorld } from './sim-world.js';
import { apis, eventsAbout, NS, phaseIs, testWorld, until } from './world-fixture.js';

/** Writes what the deposed operator last wrote for `key`: its join had only just connected. */
async function staleStatus(world: SimWorld, key: string): Promise<void> {
  const ready = await world.status(key);
  const stale = { ...ready, phase: 'Connecting', node: undefined };
  await apis(world).core.patchNamespacedConfigMap(
    { name: 'windows-instances-status', namespace: NS, body: { data: { [key]: JSON.stringify(stale) } } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
}

// A status write lost with its operator (a Lease lost mid-join after the Node was patched) left joined
// nodes `Connecting` for good in `pnpm bench fleet`: the successor found nothing to join that would write
// it. The successor now writes Ready for a joined, current, Ready node, and joins nothing again.
test('a joined node whose status a lost write left behind is Ready in the successor’s status, with no new join', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-LOST' }], { driftRepairIntervalMs: 0 });
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  const host = world.hosts.hosts[0]!;
  const first = await world.startOperator('wmco-a');
  await until('joined', phaseIs(world, host.address, 'Ready'), 90_000);
  await first.stop();

  await staleStatus(world, host.address);
  t.is((await world.status(host.address))?.phase, 'Connecting');
  const joins = (await eventsAbout(world)).filter((e) => e.reason === 'InstanceSetup').length;
  const execs = host.sim.stats.execs;

  await world.startOperator('wmco-b');
  const fixed = await until('Ready again', phaseIs(world, host.address, 'Ready'), 60_000);
  t.is(fixed.node, 'win-lost');
  t.is(
    (await eventsAbout(world)).filter((e) => e.reason === 'InstanceSetup').length,
    joins,
    'no second join',
  );
  t.is(host.sim.stats.execs, execs, 'nothing ran on the host (drift checks are off)');
});

test('a Machine’s joined node whose status a lost write left behind is Ready in the successor’s status, with no new join', async (t) => {
  const { world } = await testWorld([], { platform: 'VSphere', driftRepairIntervalMs: 0 });
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  const first = await world.startOperator('wmco-a');
  await world.machineApi().createMachineSet({ name: 'win', replicas: 1, platform: 'VSphere' });
  const [m] = await settled(world, 'win', 1);
  const key = `machine.${m?.metadata.name ?? ''}`;
  await until('joined', phaseIs(world, key, 'Ready'), 120_000);
  await first.stop();
  await staleStatus(world, key);
  t.is((await world.status(key))?.phase, 'Connecting');
  const joins = (await eventsAbout(world)).filter((e) => e.reason === 'InstanceSetup').length;

  await world.startOperator('wmco-b');
  const fixed = await until('Ready again', phaseIs(world, key, 'Ready'), 60_000);
  t.truthy(fixed.node);
  t.is(
    (await eventsAbout(world)).filter((e) => e.reason === 'InstanceSetup').length,
    joins,
    'no second join',
  );
});
