import test, { type ExecutionContext } from 'ava';
import { logOnFailure } from './log-on-failure.test-helper.js';
import { settled } from './machine-wait.js';
import { MACHINE_PLATFORMS, expectedNodeName, hasCloud } from './machine-platforms.js';
import { statusText } from './mixed-world.js';
import type { SimWorld } from './sim-world.js';
import { apis, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';
import type { HostEngine } from './sim-world-options.js';
import { powershellTest } from './engine-test.test-helper.js';

// Machines beyond scaling and re-keying (machines.e2e.test.ts): broken user data, the ignore label and
// Linux Machines on every platform with a machine-api; BYOH hosts beside Machines in `wmco status`; the
// vSphere name rules.

/**
 * Each test takes about 15 s. Once a full-suite run stalled in one of them until ava's 300 s inactivity
 * limit, which lost the report of every later test; a test that hangs now fails alone, naming itself.
 */
const TEST_MS = 150_000;
/**
 * The same on the PowerShell engine, where every host module session is a real pwsh (about a second of CPU
 * each): with a CPU hog beside it on two cores, the vSphere join (rename, reboot) took more than 150 s.
 * Below ava's 300 s inactivity limit, so a hang still fails this test alone.
 */
const POWERSHELL_TEST_MS = 280_000;

async function machineEvents(
  world: SimWorld,
): Promise<{ reason: string; message: string; kind: string; name: string }[]> {
  const list = await apis(world).core.listNamespacedEvent({ namespace: 'openshift-machine-api' });
  return list.items.map((e) => ({
    reason: e.reason ?? '',
    message: e.message ?? '',
    kind: e.involvedObject.kind ?? '',
    name: e.involvedObject.name ?? '',
  }));
}

/**
 * Broken user data, the ignore label and a Linux MachineSet in one world: the broken Machine is deleted
 * after the retry budget and replaced; the ignored and the Linux Machine are never touched.
 */
async function brokenIgnoredLinux(t: ExecutionContext, platform: string): Promise<void> {
  t.timeout(TEST_MS);
  const { world, logs } = await testWorld([], { platform, cloud: hasCloud(platform) });
  t.teardown(() => world.stop());
  await logOnFailure(t, logs, () => brokenIgnoredLinuxIn(t, { world, logs }, platform));
}

async function brokenIgnoredLinuxIn(
  t: ExecutionContext,
  { world, logs }: { world: SimWorld; logs: readonly string[] },
  platform: string,
): Promise<void> {
  await world.createPrivateKeySecret();
  await world.startOperator();
  await apis(world).core.createNamespacedSecret({
    namespace: 'openshift-machine-api',
    body: {
      metadata: { name: 'broken-user-data' },
      data: { userData: Buffer.from('Start-Service sshd\n').toString('base64') },
    },
  });
  const api = world.machineApi();
  const ignore = { 'windowsmachineconfig.openshift.io/ignore': 'true' };
  await api.createMachineSet({ name: 'bad', replicas: 1, platform, userDataSecret: 'broken-user-data' });
  await api.createMachineSet({ name: 'skip', replicas: 1, platform, labels: ignore });
  await api.createMachineSet({ name: 'linux', replicas: 1, platform, osId: '' });
  const [first] = await until(
    'a Machine',
    async () => {
      const l = await api.machines('bad');
      return l.length === 1 ? l : undefined;
    },
    TEST_MS,
  );
  const deleted = await until(
    'deletion event',
    async () =>
      (await machineEvents(world)).find(
        (e) => e.reason === 'MachineSetupFailure' && e.name === first?.metadata.name,
      ),
    // Two failed attempts with their back-off: bounded by the test's own timeout, not by a tighter window
    // that a busy machine can overrun.
    TEST_MS,
  );
  t.regex(
    deleted.message,
    /so that its MachineSet replaces it: it could not be configured: .*\(2 failed attempts\)/,
  );
  const replacement = await until(
    'a replacement',
    async () => {
      const l = await api.machines('bad');
      return l.find(
        (m) => m.metadata.name !== first?.metadata.name && m.metadata.deletionTimestamp === undefined,
      );
    },
    TEST_MS,
  );
  t.not(replacement.metadata.name, first?.metadata.name);
  // The deleted Machine's VM is not tried again while its deletion reaches the informer's cache.
  const deletedIp = /cannot reach (\S+) over SSH/.exec(deleted.message)?.[1] ?? '-';
  const deletedAt = logs.findIndex((l) => l.includes('deleting a Machine that could not be configured'));
  t.false(
    logs.slice(deletedAt + 1).some((l) => l.includes('ssh connect failed') && l.includes(`"${deletedIp}"`)),
    `no connection attempt to ${deletedIp} after its Machine was deleted`,
  );
  const ignored = (await api.machines('skip'))[0];
  const linux = (await api.machines('linux'))[0];
  t.is(ignored?.status?.phase, 'Provisioned');
  t.is(linux?.status?.phase, 'Provisioned');
  const ignoredIp = ignored?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
  t.is(world.machineHost(ignoredIp)?.stats.connectionsAccepted, 0, 'no SSH connection to the ignored VM');
  const events = await machineEvents(world);
  t.false(events.some((e) => e.name === ignored?.metadata.name || e.name === linux?.metadata.name));
  t.deepEqual(await windowsNodes(world), []);
}

for (const platform of MACHINE_PLATFORMS) {
  test.serial(
    `${platform}: broken user data is replaced; ignored and Linux Machines are never touched`,
    (t) => brokenIgnoredLinux(t, platform),
  );
}

async function coexist(
  t: ExecutionContext,
  platform: string,
  hostEngine: HostEngine = 'model',
): Promise<void> {
  const budget = hostEngine === 'powershell' ? POWERSHELL_TEST_MS : TEST_MS;
  t.timeout(budget);
  const { world, logs } = await testWorld([{ hostname: 'BYOH-A' }], {
    platform,
    cloud: hasCloud(platform),
    hostEngine,
  });
  t.teardown(() => world.stop());
  await logOnFailure(t, logs, () => coexistIn(t, world, platform, budget));
}

async function coexistIn(
  t: ExecutionContext,
  world: SimWorld,
  platform: string,
  budget: number,
): Promise<void> {
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await world.startOperator();
  await world.machineApi().createMachineSet({ name: 'win', replicas: 1, platform });
  const [m] = await settled(world, 'win', 1, budget);
  const byoh = world.hosts.hosts[0]?.address ?? '';
  await until('BYOH Ready', phaseIs(world, byoh, 'Ready'), budget);
  const machineNode = m?.status?.nodeRef?.name ?? '-';
  t.is(
    machineNode,
    m ? (expectedNodeName(platform, m) ?? '') : '',
    'the Machine node has the name the platform gives',
  );
  const names = (await windowsNodes(world)).map((n) => n.metadata?.name ?? '');
  t.is(names.length, 2);
  const byohNode = names.find((n) => n !== machineNode) ?? '-';
  t.regex(byohNode, /^byoh-a/);
  const text = await statusText(world);
  const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  t.regex(text, /SOURCE/i);
  t.regex(text, new RegExp(`BYOH\\s+${esc(byoh)}\\s+${esc(byohNode)}\\s+Ready`));
  t.regex(text, new RegExp(`Machine\\s+${esc(m?.metadata.name ?? '-')}\\s+${esc(machineNode)}\\s+Ready`));
}

for (const platform of MACHINE_PLATFORMS) {
  test.serial(
    `${platform}: BYOH hosts and Machines coexist, and wmco status lists both with their source`,
    (t) => coexist(t, platform),
  );
}
// The vSphere Machine's join renames the VM and reboots it: on the PowerShell engine through the module.
powershellTest(
  'VSphere: BYOH hosts and Machines coexist, and wmco status lists both with their source',
  (t, engine) => coexist(t, 'VSphere', engine),
);

test.serial(
  'vSphere: a MachineSet name longer than 9 characters gets one event, before any Machine; its Machines are left alone',
  async (t) => {
    t.timeout(TEST_MS);
    const { world, logs } = await testWorld([], { platform: 'VSphere' });
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    await world.startOperator();
    const api = world.machineApi();
    await api.createMachineSet({ name: 'winworker1', replicas: 0, platform: 'VSphere' });
    await api.createMachineSet({ name: 'winworker', replicas: 0, platform: 'VSphere' });
    const event = await until('InvalidMachineName', async () =>
      (await machineEvents(world)).find((e) => e.reason === 'InvalidMachineName'),
    );
    t.is(event.kind, 'MachineSet');
    t.is(event.name, 'winworker1');
    t.regex(
      event.message,
      /winworker1-<5 characters>.*longer than 15 characters.*use a MachineSet name of at most 9 characters/,
    );
    await api.scale('winworker1', 1);
    const m = await until('a Provisioned Machine', async () =>
      (await api.machines('winworker1')).find((x) => x.status?.phase === 'Provisioned'),
    );
    // The operator's own word that it looked at this Machine and left it alone, instead of a second of
    // sleep that a busy machine may not give the operator.
    await until('the operator to pass over the Machine', () =>
      Promise.resolve(
        logs.some(
          (l) =>
            l.includes('Machine name too long; reported on its MachineSet') && l.includes(m.metadata.name),
        ) || undefined,
      ),
    );
    const ip = m.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
    t.is(world.machineHost(ip)?.stats.connectionsAccepted, 0, 'no SSH connection');
    const invalid = (await machineEvents(world)).filter((e) => e.reason === 'InvalidMachineName');
    t.deepEqual(
      invalid.map((e) => `${e.kind}/${e.name}`),
      ['MachineSet/winworker1'],
      'one event, on the MachineSet; none for the 9-character name',
    );
    t.deepEqual(await windowsNodes(world), []);
  },
);
