import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import {
  CHANGED_BINARY,
  VERSION_A,
  VERSION_B,
  allUpgraded,
  installOperatorCondition,
  upgradeableOf,
  versionOf,
} from './upgrade-fixture.js';
import { MACHINE_SET, machinePhases, mixedWorld, statusText, webWorkload } from './mixed-world.js';
import { Watchdog } from './watchdog.js';
import { Workload } from './workload.js';
import { NS, apis, eventsAbout, until, windowsNodes } from './world-fixture.js';

// Issue 14's done-when with Machines (issue 13): two BYOH hosts and two vSphere Machines go from
// operator A to B through the one upgrade flow, under the one disruption budget.

function shippedSize(payloadDir: string): number {
  const archive = join(payloadDir, `${CHANGED_BINARY}.tar.gz`);
  return statSync(existsSync(archive) ? archive : join(payloadDir, CHANGED_BINARY)).size;
}

const kubeletStarts = (h: { model: { scm: { events: { action: string; name: string }[] } } }): number =>
  h.model.scm.events.filter((e) => e.action === 'start' && e.name === 'kubelet').length;

test.serial(
  '2 BYOH + 2 Machines upgrade from A to B: one at a time, PDB honoured, only the changed binary sent, old ConfigMap gone',
  async (t) => {
    const { world, hosts, machineNodes } = await mixedWorld();
    const workload = await webWorkload(world);
    t.teardown(async () => {
      workload.stop();
      await world.stop();
    });
    const payloadB = await world.payloadVariant('b', [CHANGED_BINARY]);
    const before = new Map([...hosts].map(([n, h]) => [n, h.stats.bytesReceived]));
    const kubelets = new Map([...hosts].map(([n, h]) => [n, kubeletStarts(h)]));
    await installOperatorCondition(world, 'wmco.v1.1.0');
    const upgradeable = upgradeableOf(world, 'wmco.v1.1.0');
    const dog = new Watchdog(world, workload, upgradeable);
    await dog.start();
    const machines = (await world.machineApi().machines(MACHINE_SET)).map((m) => m.metadata.name);
    const phases = machinePhases(world, machines);
    const started = Date.now();
    await world.startOperator('wmco-b', {
      version: VERSION_B,
      payloadDir: payloadB,
      operatorCondition: 'wmco.v1.1.0',
    });
    await until('every node on B', allUpgraded(world), 240_000);
    t.log(`four nodes (2 BYOH, 2 Machines) upgraded one at a time in ${Date.now() - started} ms`);
    await until('Upgradeable True after the upgrade', async () =>
      (await upgradeable()) === 'True/upgradeIsSafe' ? true : undefined,
    );
    dog.stop();
    const seen = phases.stop();
    t.is(dog.conditions[0], 'False/upgradeIsNotSafe', 'Upgradeable is False during the upgrade');
    t.true(seen.has('Upgrading'), `the Machines' status showed the upgrade (${[...seen].join(', ')})`);
    t.is(dog.maxUnavailable, 1, `never more than one node unavailable (worst: ${dog.worst.join(', ')})`);
    t.true(dog.minHealthy >= 3, `the PDB (minAvailable 3) was never violated (min ${dog.minHealthy})`);

    const nodes = await windowsNodes(world);
    t.is(nodes.length, 4);
    t.deepEqual(
      nodes.map((n) => n.metadata?.name ?? '').sort(),
      ['byoh-a', 'byoh-b', ...machineNodes].sort(),
      'the same four nodes: nothing was re-created',
    );
    const shipped = shippedSize(payloadB);
    for (const [name, host] of hosts) {
      const sent = host.stats.bytesReceived - (before.get(name) ?? 0);
      t.true(sent >= shipped && sent < shipped * 1.5, `${name} received ${sent} bytes`);
      t.log(`${name}: ${sent} bytes uploaded by the upgrade (changed binary as shipped: ${shipped})`);
      t.is(kubeletStarts(host), kubelets.get(name) ?? -1, `${name}: the kubelet was not restarted`);
    }
    const names = nodes.map((n) => n.metadata?.name ?? '');
    await until('an Upgraded event for every node, Machines included', async () => {
      const events = await eventsAbout(world);
      const has = (name: string): boolean =>
        events.some((e) => e.reason === 'Upgraded' && e.message.includes(`node ${name} from ${VERSION_A}`));
      return names.every(has) ? true : undefined;
    });
    await until('the services ConfigMap of A deleted', async () => {
      const cms = (await apis(world).core.listNamespacedConfigMap({ namespace: NS })).items.map(
        (c) => c.metadata?.name,
      );
      return !cms.includes(`windows-services-${VERSION_A}`) && cms.includes(`windows-services-${VERSION_B}`)
        ? true
        : undefined;
    });
    // wmco status: the Machines' nodes with their version, out of maintenance.
    const text = await statusText(world);
    for (const [i, m] of machines.entries())
      t.regex(text, new RegExp(`Machine\\s+${m}\\s+${machineNodes[i] ?? ''}\\s+Ready\\s+${VERSION_B}\\s+-`));
  },
);

test.serial(
  'maxUnavailable=2 over BYOH and Machines: two at once, never three; a Machine node whose drain a PDB blocks waits while the others proceed',
  async (t) => {
    const { world, machineNodes } = await mixedWorld();
    const workload = await webWorkload(world);
    t.teardown(async () => {
      workload.stop();
      await world.stop();
    });
    const blocked = machineNodes[0] ?? '';
    const pinned = new Workload(world, 'pinned', NS, 0);
    await pinned.policy.createNamespacedPodDisruptionBudget({
      namespace: NS,
      body: {
        metadata: { name: 'pinned' },
        spec: { minAvailable: 1, selector: { matchLabels: { app: 'pinned' } } },
      },
    });
    await pinned.place(blocked);
    const payloadB = await world.payloadVariant('b', [CHANGED_BINARY]);
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
        const others = (await windowsNodes(world)).filter((n) => n.metadata?.name !== blocked);
        return others.every((n) => versionOf(n) === VERSION_B && !n.spec?.unschedulable) ? true : undefined;
      },
      240_000,
    );
    for (const reason of ['DrainWaiting', 'UpgradeDrainTimeout'])
      await until(`a ${reason} event about ${blocked}`, async () =>
        (await eventsAbout(world)).some((e) => e.reason === reason && e.message.includes(blocked))
          ? true
          : undefined,
      );
    const stuck = (await windowsNodes(world)).find((n) => n.metadata?.name === blocked);
    t.is(versionOf(stuck!), VERSION_A, `${blocked} is still on A: its drain is blocked`);
    await pinned.policy.deleteNamespacedPodDisruptionBudget({ name: 'pinned', namespace: NS });
    await until('every node on B', allUpgraded(world), 120_000);
    dog.stop();
    t.is(dog.maxUnavailable, 2, `two at once, never three (worst: ${dog.worst.join(', ')})`);
    t.true(dog.minHealthy >= 3, `the web PDB was never violated (min ${dog.minHealthy})`);
  },
);
