import test, { type ExecutionContext } from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import {
  LIFECYCLE_BOOT_ANNOTATION,
  LIFECYCLE_PHASE_ANNOTATION,
  REBOOT_REQUESTED_ANNOTATION,
  REBOOT_REQUIRED_ANNOTATION,
} from '@wmco/core/internal';
import type { SimulatedWindowsHost } from '@wmco/sim';
import { requestReboot } from '@wmco/operator';
import { logOnFailure } from './log-on-failure.test-helper.js';
import { isReady } from './machine-wait.js';
import { mixedWorld } from './mixed-world.js';
import { VERSION_A } from './upgrade-fixture.js';
import type { SimWorld } from './sim-world.js';
import { Watchdog } from './watchdog.js';
import { apis, eventsAbout, until, windowsNodes } from './world-fixture.js';

// Machine-backed nodes reboot through the same flow and budget as BYOH nodes: on `wmco reboot`, on drift
// that needs a reboot, and resumed (not repeated) by a successor leader.

const reboots = (h: SimulatedWindowsHost): number => h.invocations.filter((i) => i.op === 'reboot').length;

/** Each Machine host's state, for a failure's log: whether it is up, its reboots and its last boot. */
function hostStates(hosts: ReadonlyMap<string, SimulatedWindowsHost>): () => string {
  return () =>
    [...hosts]
      .map(
        ([name, h]) =>
          `${name} (${h.host}): ${h.up ? 'up' : `down (reboot: ${h.rebootUnderWay ?? 'none'})`}, ` +
          `${reboots(h)} reboot(s) asked, ${h.stats.reboots} done ` +
          `or under way, last boot ${h.model.lastBootTime.toISOString()}`,
      )
      .join('\n');
}

/** The node rebooted since `bootedBefore` and is back in service with no request or step left. */
function backInService(world: SimWorld, name: string, host: SimulatedWindowsHost, bootedBefore: number) {
  return async (): Promise<V1Node | undefined> => {
    const n = (await windowsNodes(world)).find((x) => x.metadata?.name === name);
    const a = n?.metadata?.annotations ?? {};
    const done =
      n !== undefined &&
      host.model.lastBootTime.getTime() > bootedBefore &&
      !n.spec?.unschedulable &&
      isReady(n) &&
      [
        REBOOT_REQUIRED_ANNOTATION,
        REBOOT_REQUESTED_ANNOTATION,
        LIFECYCLE_PHASE_ANNOTATION,
        LIFECYCLE_BOOT_ANNOTATION,
      ].every((k) => a[k] === undefined);
    return done ? n : undefined;
  };
}

test.serial(
  'Machine nodes: wmco reboot and drift that needs a reboot go through the budget, one at a time, one reboot each',
  async (t) => {
    const { world, hosts, machineNodes, logs } = await mixedWorld(undefined, { keep: true, rebootMs: 1000 });
    t.teardown(() => world.stop());
    await logOnFailure(t, logs, () => budgetedReboots(t, world, hosts, machineNodes), {
      lines: 150,
      context: hostStates(hosts),
    });
  },
);

async function budgetedReboots(
  t: ExecutionContext,
  world: SimWorld,
  hosts: ReadonlyMap<string, SimulatedWindowsHost>,
  machineNodes: readonly string[],
): Promise<void> {
  const [asked, drifted] = machineNodes as [string, string];
  const hostOf = (n: string): SimulatedWindowsHost => hosts.get(n) as SimulatedWindowsHost;
  const rebootsBefore = new Map(machineNodes.map((n) => [n, reboots(hostOf(n))]));
  const bootsBefore = new Map(machineNodes.map((n) => [n, hostOf(n).model.lastBootTime.getTime()]));
  const dog = new Watchdog(world);
  await dog.start();
  await requestReboot(apis(world).core, asked);
  // Someone removed the Containers feature: putting it back needs a reboot, so the drift check asks for one.
  hostOf(drifted).model.containersFeature = false;
  for (const n of machineNodes)
    await until(
      `${n} rebooted and back in service`,
      backInService(world, n, hostOf(n), bootsBefore.get(n) ?? 0),
      120_000,
    );
  dog.stop();
  t.is(dog.maxUnavailable, 1, `one node out at a time (worst: ${dog.worst.join(', ')})`);
  for (const n of machineNodes)
    t.is(reboots(hostOf(n)) - (rebootsBefore.get(n) ?? 0), 1, `${n} was rebooted exactly once`);
  t.true(hostOf(drifted).model.containersFeature, 'the drift was repaired by the reboot');
  // The events follow the uncordon: wait for them rather than race them.
  await until('DriftNeedsReboot and a Rebooted event for each Machine node', async () => {
    const events = await eventsAbout(world);
    const drift = events.some((e) => e.reason === 'DriftNeedsReboot' && e.message.includes(drifted));
    const rebooted = machineNodes.every((n) =>
      events.some((e) => e.reason === 'Rebooted' && e.message.includes(`node ${n} `)),
    );
    return drift && rebooted ? true : undefined;
  });
}

test.serial(
  'an operator killed while a Machine node reboots: the successor resumes it without rebooting it again',
  async (t) => {
    const { world, hosts, machineNodes, logs } = await mixedWorld(undefined, { keep: true, rebootMs: 3000 });
    t.teardown(() => world.stop());
    await logOnFailure(t, logs, () => resumedReboot(t, world, hosts, machineNodes[0] ?? ''), {
      lines: 150,
      context: hostStates(hosts),
    });
  },
);

async function resumedReboot(
  t: ExecutionContext,
  world: SimWorld,
  hosts: ReadonlyMap<string, SimulatedWindowsHost>,
  name: string,
): Promise<void> {
  const host = hosts.get(name) as SimulatedWindowsHost;
  const before = reboots(host);
  const booted = host.model.lastBootTime.getTime();
  await requestReboot(apis(world).core, name);
  await until('the reboot sent to the host', () =>
    Promise.resolve(reboots(host) > before ? true : undefined),
  );
  await world.operators[0]?.kill();
  const left = (await windowsNodes(world)).find((n) => n.metadata?.name === name);
  t.true(left?.spec?.unschedulable, 'the killed operator left the node cordoned');
  t.truthy(left?.metadata?.annotations?.[LIFECYCLE_PHASE_ANNOTATION], 'with its step recorded');
  t.truthy(left?.metadata?.annotations?.[LIFECYCLE_BOOT_ANNOTATION], 'and the boot time before the reboot');
  const dog = new Watchdog(world);
  await dog.start();
  await world.startOperator('wmco-successor', { version: VERSION_A });
  await until('the node back in service', backInService(world, name, host, booted), 120_000);
  dog.stop();
  t.is(reboots(host) - before, 1, 'rebooted once, not again by the successor');
  t.is(dog.maxUnavailable, 1);
}
