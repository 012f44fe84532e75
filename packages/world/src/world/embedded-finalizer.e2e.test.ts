import test from 'ava';
import { join } from 'node:path';
import type { V1Node } from '@kubernetes/client-node';
import { NODE_RECORD_LABEL } from '@wmco/core/internal';
import {
  lineLogger,
  startEmbeddedController,
  WINDOWS_HOST_FINALIZER,
  type EmbeddedController,
} from '@wmco/embedded-controller-example';
import type { SimWorld } from './sim-world.js';
import { applyWindowsHostCrd, WorldWindowsHosts } from './windows-host-fixture.js';
import { apis, NS, testWorld, until } from './world-fixture.js';

// The example's finalizer on WindowsHosts: a deleted WindowsHost stays until the shared removal flow has
// drained, deconfigured and deleted its node; a host that cannot be reached ends with a Warning event and
// the finalizer released, its removal going on from the node record (as for a windows-instances entry).

async function started(world: SimWorld, first = true): Promise<EmbeddedController> {
  if (first) {
    await world.createPrivateKeySecret();
    await applyWindowsHostCrd(world);
  }
  return startEmbeddedController({
    kubeconfig: join(world.dir, 'operator.kubeconfig'),
    namespace: NS,
    payloadDir: world.payloadDir,
    logger: lineLogger({ level: 'debug', write: () => undefined }),
    simulation: {
      hooks: {
        sshOverrides: (address) => world.hosts.sshOverrides(address),
        resolver: world.resolver,
        timings: { nodeRegistrationMs: 60_000, nodeReadyMs: 60_000, pollMs: 100, keyRetryMs: 500 },
        lifecycle: { drainRetryMs: 200, drainTimeoutMs: 30_000 },
      },
      driftRepairIntervalMs: 600_000,
    },
  });
}

async function node(world: SimWorld, name: string): Promise<V1Node | undefined> {
  return apis(world)
    .core.readNode({ name })
    .catch(() => undefined);
}

/** `<type> <reason>` of each event about the WindowsHost `name`. */
async function eventsOf(world: SimWorld, name: string): Promise<string[]> {
  const events = await apis(world).core.listNamespacedEvent({ namespace: NS });
  return events.items
    .filter((e) => e.involvedObject.kind === 'WindowsHost' && e.involvedObject.name === name)
    .map((e) => `${e.type ?? ''} ${e.reason ?? ''}`);
}

/** A probe: every one of `wanted` is among the events about the WindowsHost `name`. */
function eventsAre(
  world: SimWorld,
  name: string,
  wanted: readonly string[],
): () => Promise<true | undefined> {
  return async () => {
    const seen = await eventsOf(world, name);
    return wanted.every((w) => seen.includes(w)) ? true : undefined;
  };
}

async function records(world: SimWorld): Promise<number> {
  const cms = await apis(world).core.listNamespacedConfigMap({
    namespace: NS,
    labelSelector: `${NODE_RECORD_LABEL}=true`,
  });
  return cms.items.length;
}

async function joined(world: SimWorld, hosts: WorldWindowsHosts): Promise<void> {
  await hosts.create('win-e', world.hosts.hosts[0]!.address);
  await until('WindowsHost win-e Ready', hosts.phaseIs('win-e', 'Ready'), 90_000);
  await until('the finalizer on win-e', async () =>
    (await hosts.get('win-e'))?.metadata?.finalizers?.includes(WINDOWS_HOST_FINALIZER) ? true : undefined,
  );
}

test('a deleted WindowsHost stays until its node is removed, then the finalizer is released', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-E' }]);
  t.teardown(() => world.stop());
  const controller = await started(world);
  t.teardown(() => controller.stop());
  const hosts = new WorldWindowsHosts(world, NS);
  await joined(world, hosts);
  const host = world.hosts.hosts[0]!;

  // The node stays Ready and its services run while the WindowsHost is deleted, until the removal ran:
  // the WindowsHost is seen gone only once nothing of the node is left.
  await hosts.delete('win-e');
  t.truthy(await hosts.get('win-e'), 'held by the finalizer');
  await until('WindowsHost win-e gone', async () => ((await hosts.get('win-e')) ? undefined : true), 90_000);
  t.is(await node(world, 'win-e'), undefined, 'the Node was deleted before the finalizer went');
  t.deepEqual(host.sim.model.scm.all(), [], 'the host was deconfigured before the finalizer went');
  t.false(host.sim.model.files.isDirectory('C:\\k'));
  t.is(await records(world), 0, 'its record is gone');
  // The removal's own event follows its last status write (which released the finalizer).
  await until(
    'the removal’s events on win-e',
    eventsAre(world, 'win-e', ['Normal InstanceTeardown', 'Normal NodeRemoved']),
  );
});

test('a WindowsHost whose host cannot be reached is released with a Warning; its removal goes on from the record', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-E' }]);
  t.teardown(() => world.stop());
  const controller = await started(world);
  t.teardown(() => controller.stop());
  const hosts = new WorldWindowsHosts(world, NS);
  await joined(world, hosts);
  const host = world.hosts.hosts[0]!;

  // The host is gone from the network: nothing listens at its address any more.
  world.hosts.setConnectDeadline(host.address, 1000);
  await host.sim.stop();
  await hosts.delete('win-e');
  await until(
    'WindowsHost win-e released',
    async () => ((await hosts.get('win-e')) ? undefined : true),
    90_000,
  );
  await until(
    'the failed removal’s warnings on win-e',
    eventsAre(world, 'win-e', ['Warning InstanceTeardownFailure', 'Warning RemovalIncomplete']),
  );
  // What the removal flow keeps for its retries: the record, and the Node cordoned, not deleted.
  t.is(await records(world), 1, 'the record stays for the removal’s retries');
  t.true((await node(world, 'win-e'))?.spec?.unschedulable, 'the Node stays, cordoned');
  // The removal is retried (Removing, then Failed again while the host stays away).
  t.true(['Removing', 'Failed'].includes((await world.status(host.address))?.phase ?? ''));
  const events = await apis(world).core.listNamespacedEvent({ namespace: NS });
  const incomplete = events.items.find((e) => e.reason === 'RemovalIncomplete');
  t.regex(incomplete?.message ?? '', /could not be deconfigured \(removal: .*keeps retrying the removal/);
});

test('a WindowsHost that never joined and was deleted while the controller was down is released at its start', async (t) => {
  const { world } = await testWorld([]);
  t.teardown(() => world.stop());
  let controller = await started(world);
  t.teardown(() => controller.stop());
  const hosts = new WorldWindowsHosts(world, NS);
  // Nothing listens here: each join attempt fails once its connect deadline passed.
  const dead = '127.1.2.3';
  world.hosts.setConnectDeadline(dead, 500);
  await hosts.create('win-dead', dead);
  await until('win-dead failed', hosts.phaseIs('win-dead', 'Failed'), 60_000);
  await until('the finalizer on win-dead', async () =>
    (await hosts.get('win-dead'))?.metadata?.finalizers?.includes(WINDOWS_HOST_FINALIZER) ? true : undefined,
  );
  await controller.stop();
  await hosts.delete('win-dead');
  t.truthy(await hosts.get('win-dead'), 'held while no controller runs');
  // No record and no entry any more: only the list's leaving hosts tell the new controller of it.
  controller = await started(world, false);
  await until('WindowsHost win-dead released', async () =>
    (await hosts.get('win-dead')) ? undefined : true,
  );
  await until('NodeRemoved on win-dead', eventsAre(world, 'win-dead', ['Normal NodeRemoved']));
  t.pass();
});
