// Host-key pins last as long as their instance (issue 27): a new machine given a removed instance's
// address, with a new SSH host key, joins instead of failing with a host key mismatch for ever.
import test from 'ava';
import { NODE_RECORD_LABEL } from '@wmco/core/internal';
import { OPERATOR_NAMESPACE } from '@wmco/sim';
import { hostKeyPins, pinsOfHost } from './host-key-pins.js';
import { settled } from './machine-wait.js';
import type { SimWorld } from './sim-world.js';
import { apis, eventsAbout, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';

/** The pins the operator holds for `ip` (recorded first, then pending), as `type base64`. */
async function pinsFor(world: SimWorld, ip: string): Promise<string[]> {
  const of = pinsOfHost(await hostKeyPins(world), ip);
  return [...of.recorded, ...of.pending];
}

test.serial('a BYOH entry removed and added back with a new host key joins again', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-AGAIN' }]);
  t.teardown(() => world.stop());
  const [host] = world.hosts.hosts;
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await world.startOperator();
  await until('WIN-AGAIN Ready', phaseIs(world, host!.address, 'Ready'), 90_000);
  t.deepEqual(
    pinsOfHost(await hostKeyPins(world), host!.address).pending,
    [],
    'pinned on first use, in the node record alone',
  );
  t.is((await pinsFor(world, host!.address)).length, 1);

  await world.setInstances({});
  await until('the node removed', async () => ((await windowsNodes(world)).length === 0 ? true : undefined));
  await until('its pin forgotten', async () =>
    (await pinsFor(world, host!.address)).length === 0 ? true : undefined,
  );
  // The machine is reinstalled (a new host key) and listed again under the same address.
  await host!.sim.rotateHostKey();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await until('WIN-AGAIN Ready again', phaseIs(world, host!.address, 'Ready'), 90_000);
  const mismatch = (await eventsAbout(world)).filter((e) => /host key/i.test(e.message));
  t.deepEqual(mismatch, [], 'no host key mismatch');
  const [pin] = await pinsFor(world, host!.address);
  t.true(pin?.endsWith(host!.sim.hostKeyBase64), 'the new key is pinned');
});

test.serial(
  'a deleted Machine replaced by one at the same address, with a new host key, joins',
  async (t) => {
    t.timeout(150_000);
    const { world } = await testWorld([], { platform: 'VSphere' });
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    await world.startOperator();
    const api = world.machineApi();
    await api.createMachineSet({ name: 'win', replicas: 1, platform: 'VSphere' });
    const [first] = await settled(world, 'win', 1);
    const ip = first!.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
    const [firstPin] = await pinsFor(world, ip);
    t.truthy(firstPin, 'pinned on first use');
    const records = async (): Promise<number> =>
      (
        await apis(world).core.listNamespacedConfigMap({
          namespace: OPERATOR_NAMESPACE,
          labelSelector: NODE_RECORD_LABEL,
        })
      ).items.length;
    t.is(await records(), 1, 'the join recorded the Machine’s node');

    await api.scale('win', 0);
    await until('the Machine and its node gone', async () =>
      (await api.machines('win')).length === 0 && (await windowsNodes(world)).length === 0 ? true : undefined,
    );
    await until('the deleted Machine’s record forgotten', async () =>
      (await records()) === 0 ? true : undefined,
    );
    t.deepEqual(await pinsFor(world, ip), [], 'its pin went with its record');
    // The IP pool hands the address to the next VM, which has a host key of its own.
    world.launcher.reuseAddress(ip);
    await api.scale('win', 1);
    const [second] = await settled(world, 'win', 1);
    t.not(second!.metadata.name, first!.metadata.name);
    t.is(second!.status?.addresses?.find((a) => a.type === 'InternalIP')?.address, ip, 'the same address');
    const [secondPin] = await pinsFor(world, ip);
    t.truthy(secondPin, 'the new VM is pinned');
    t.not(secondPin, firstPin, 'under its own key');
    const machineEvents = await apis(world).core.listNamespacedEvent({ namespace: 'openshift-machine-api' });
    t.false(
      machineEvents.items.some((e) => e.reason === 'MachineSetupFailure'),
      'no Machine was deleted for failing',
    );
  },
);

test.serial(
  'a Machine deleted while no operator ran, replaced by one at the same address, joins',
  async (t) => {
    t.timeout(150_000);
    const { world } = await testWorld([], { platform: 'VSphere' });
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    const first = await world.startOperator();
    const api = world.machineApi();
    await api.createMachineSet({ name: 'win', replicas: 1, platform: 'VSphere' });
    const [before] = await settled(world, 'win', 1);
    const ip = before!.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
    const [firstPin] = await pinsFor(world, ip);
    t.truthy(firstPin, 'pinned on first use');
    await first.stop();

    // Deleted while no operator watches: its record, and the pin in it, are left behind.
    await api.scale('win', 0);
    await until('the Machine gone', async () =>
      (await api.machines('win')).length === 0 ? true : undefined,
    );
    t.deepEqual(await pinsFor(world, ip), [firstPin], 'nothing forgot it yet');
    world.launcher.reuseAddress(ip);
    await world.startOperator('wmco-1');
    await until('the gone Machine’s pin forgotten on start', async () =>
      (await pinsFor(world, ip)).length === 0 ? true : undefined,
    );
    await api.scale('win', 1);
    const [after] = await settled(world, 'win', 1);
    t.is(after!.status?.addresses?.find((a) => a.type === 'InternalIP')?.address, ip, 'the same address');
    const [secondPin] = await pinsFor(world, ip);
    t.truthy(secondPin);
    t.not(secondPin, firstPin, 'the new VM is pinned under its own key');
  },
);

test.serial(
  'a join abandoned before its record forgets its pending pin; the host comes back with a new key',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-LATER' }]);
    t.teardown(() => world.stop());
    const host = world.hosts.hosts[0]!;
    // Refused at join after the first contact (Windows Server 2016): pinned, and no record ever written.
    host.sim.model.osBuild = 14393;
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await world.startOperator();
    await until(`${host.address} Failed`, phaseIs(world, host.address, 'Failed'), 90_000);
    const pending = pinsOfHost(await hostKeyPins(world), host.address);
    t.deepEqual(pending.recorded, [], 'no record');
    t.is(pending.pending.length, 1, 'the first key is pending');

    await world.setInstances({});
    await until('its pending pin forgotten', async () =>
      (await pinsFor(world, host.address)).length === 0 ? true : undefined,
    );
    // Reinstalled (a supported build, a new host key) and listed again under the same address.
    host.sim.model.osBuild = 20348;
    await host.sim.rotateHostKey();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await until('WIN-LATER Ready', phaseIs(world, host.address, 'Ready'), 90_000);
    const pins = pinsOfHost(await hostKeyPins(world), host.address);
    t.deepEqual(pins.pending, [], 'the record took the pin');
    t.true(pins.recorded[0]?.endsWith(host.sim.hostKeyBase64), 'the new key, in the record');
  },
);
