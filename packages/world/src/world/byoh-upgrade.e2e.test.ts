import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { LIFECYCLE_PHASE_ANNOTATION } from '@wmco/core/internal';
import {
  CHANGED_BINARY,
  VERSION_A,
  VERSION_B,
  allUpgraded,
  bytesByHost,
  installOperatorCondition,
  upgradeableOf,
  versionOf,
  worldOnVersionA,
} from './upgrade-fixture.js';
import { Watchdog } from './watchdog.js';
import { Workload } from './workload.js';
import { NS, apis, eventsAbout, until, windowsNodes } from './world-fixture.js';

/** The changed binary as the payload ships it (upstream's layout: its `.tar.gz`), which is what a node receives. */
function shippedSize(payloadDir: string): number {
  const archive = join(payloadDir, `${CHANGED_BINARY}.tar.gz`);
  return statSync(existsSync(archive) ? archive : join(payloadDir, CHANGED_BINARY)).size;
}

test.serial(
  'operator A removed leaves its nodes; B upgrades all four one at a time, PDB honoured, only the changed binary sent',
  async (t) => {
    const { world, workload, payloadB } = await worldOnVersionA();
    t.teardown(async () => {
      workload.stop();
      await world.stop();
    });
    // Operator A is gone (uninstalled): the nodes stay as they are, Ready, in service, on A.
    await new Promise((r) => setTimeout(r, 1500));
    for (const n of await windowsNodes(world)) {
      t.is(versionOf(n), VERSION_A);
      t.falsy(n.spec?.unschedulable);
      t.true((n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'));
    }
    for (const h of world.hosts.hosts)
      t.is(h.sim.model.scm.all().find((s) => s.name === 'kubelet')?.state, 'running');
    const before = bytesByHost(world);
    const podsBefore = new Set((await workload.pods()).map((p) => p.metadata?.name));
    await installOperatorCondition(world, 'wmco.v1.1.0');
    const upgradeable = upgradeableOf(world, 'wmco.v1.1.0');
    const dog = new Watchdog(world, workload, upgradeable);
    await dog.start();
    await world.startOperator('wmco-b', {
      version: VERSION_B,
      payloadDir: payloadB,
      operatorCondition: 'wmco.v1.1.0',
    });
    await until('every node on B', allUpgraded(world), 180_000);
    await until('Upgradeable True after the upgrade', async () =>
      (await upgradeable()) === 'True/upgradeIsSafe' ? true : undefined,
    );
    dog.stop();
    t.is(dog.conditions[0], 'False/upgradeIsNotSafe', 'Upgradeable is False during the upgrade');

    t.true(dog.samples > 20, 'the watchdog sampled the upgrade');
    t.is(dog.maxUnavailable, 1, `never more than one node unavailable (worst: ${dog.worst.join(', ')})`);
    t.true(dog.minHealthy >= 3, `the PDB (minAvailable 3) was never violated (min ${dog.minHealthy})`);
    const moved = (await workload.pods()).filter((p) => !podsBefore.has(p.metadata?.name));
    t.true(moved.length >= 1, 'pods were evicted and replaced');

    const after = bytesByHost(world);
    const shipped = shippedSize(payloadB);
    for (const [name, bytes] of after) {
      const sent = bytes - (before.get(name) ?? 0);
      t.true(sent >= shipped && sent < shipped * 1.5, `${name} received ${sent} bytes`);
      t.log(`${name}: ${sent} bytes uploaded by the upgrade (changed binary as shipped: ${shipped})`);
    }
    for (const h of world.hosts.hosts) {
      const restarts = h.sim.model.scm.events.filter((e) => e.action === 'start' && e.name === 'kubelet');
      t.is(
        restarts.length,
        1,
        `${h.spec.hostname}: the kubelet was not restarted (only ${CHANGED_BINARY} changed)`,
      );
    }

    // The Upgraded event follows the version annotation: wait for all four.
    const names = (await windowsNodes(world)).map((n) => n.metadata?.name ?? '');
    await until('an Upgraded event for every node', async () => {
      const events = await eventsAbout(world);
      const has = (name: string): boolean =>
        events.some((e) => e.reason === 'Upgraded' && e.message.includes(`node ${name} from ${VERSION_A}`));
      return names.every(has) ? true : undefined;
    });
    await until('the services ConfigMap of A deleted', async () => {
      const names = (await apis(world).core.listNamespacedConfigMap({ namespace: NS })).items.map(
        (c) => c.metadata?.name,
      );
      return !names.includes(`windows-services-${VERSION_A}`) &&
        names.includes(`windows-services-${VERSION_B}`)
        ? true
        : undefined;
    });
    // Deleted by someone: put back.
    await apis(world).core.deleteNamespacedConfigMap({
      name: `windows-services-${VERSION_B}`,
      namespace: NS,
    });
    await until('the services ConfigMap of B restored', async () =>
      (
        await apis(world).core.readNamespacedConfigMap({
          name: `windows-services-${VERSION_B}`,
          namespace: NS,
        })
      ).immutable
        ? true
        : undefined,
    );
    t.pass();
  },
);

test.serial(
  'maxUnavailable=2 allows two and never three; a node a PDB blocks waits while others proceed',
  async (t) => {
    const { world, workload, payloadB } = await worldOnVersionA();
    t.teardown(async () => {
      workload.stop();
      await world.stop();
    });
    // A single-replica workload on win-a whose PDB never allows an eviction.
    const pinned = new Workload(world, 'pinned', NS, 0);
    await pinned.policy.createNamespacedPodDisruptionBudget({
      namespace: NS,
      body: {
        metadata: { name: 'pinned' },
        spec: { minAvailable: 1, selector: { matchLabels: { app: 'pinned' } } },
      },
    });
    await pinned.place('win-a');
    const dog = new Watchdog(world, workload);
    await dog.start();
    await world.startOperator('wmco-b', {
      version: VERSION_B,
      payloadDir: payloadB,
      maxUnavailable: '2',
      drainTimeoutMs: 2000,
    });
    await until(
      'the three other nodes on B',
      async () => {
        const nodes = await windowsNodes(world);
        const others = nodes.filter((n) => n.metadata?.name !== 'win-a');
        return others.every((n) => versionOf(n) === VERSION_B && !n.spec?.unschedulable) ? true : undefined;
      },
      180_000,
    );
    const a = (await windowsNodes(world)).find((n) => n.metadata?.name === 'win-a');
    t.is(versionOf(a!), VERSION_A, 'win-a is still on A: its drain is blocked');
    // The blocked drain's events: it waits, then gives the node back after its bounded wait (2 s here),
    // which may end after the other three nodes are done; wait for them rather than race them.
    for (const reason of ['DrainWaiting', 'UpgradeDrainTimeout']) {
      await until(`a ${reason} event about win-a`, async () =>
        (await eventsAbout(world)).some((e) => e.reason === reason && e.message.includes('win-a'))
          ? true
          : undefined,
      );
    }
    // The blocking PDB goes: win-a upgrades too.
    await pinned.policy.deleteNamespacedPodDisruptionBudget({ name: 'pinned', namespace: NS });
    await until('every node on B', allUpgraded(world), 120_000);
    dog.stop();
    t.is(dog.maxUnavailable, 2, `two at once, never three (worst: ${dog.worst.join(', ')})`);
    t.true(dog.minHealthy >= 3, `the web PDB was never violated (min ${dog.minHealthy})`);
  },
);

test.serial('an operator killed mid-upgrade: the next leader finishes within the budget', async (t) => {
  const { world, workload, payloadB } = await worldOnVersionA();
  t.teardown(async () => {
    workload.stop();
    await world.stop();
  });
  const dog = new Watchdog(world, workload);
  await dog.start();
  const first = await world.startOperator('wmco-b1', { version: VERSION_B, payloadDir: payloadB });
  await until('a node taken out of service', async () =>
    (await windowsNodes(world)).some((n) => n.metadata?.annotations?.[LIFECYCLE_PHASE_ANNOTATION])
      ? true
      : undefined,
  );
  await first.kill();
  const cordoned = (await windowsNodes(world)).filter((n) => n.spec?.unschedulable);
  t.is(cordoned.length, 1, 'the killed operator left one node cordoned');
  await world.startOperator('wmco-b2', { version: VERSION_B, payloadDir: payloadB });
  await until('every node on B', allUpgraded(world), 180_000);
  dog.stop();
  t.is(dog.maxUnavailable, 1, `never more than one unavailable (worst: ${dog.worst.join(', ')})`);
  t.true(dog.minHealthy >= 3);
});
