import test, { type ExecutionContext } from 'ava';
import { generateEd25519KeyPair } from '@wmco/sim';
import { isReady, machineNodes, settled } from './machine-wait.js';
import {
  MACHINE_PLATFORMS,
  PROVIDER_ID,
  cloudLookup,
  expectedNodeName,
  hasCloud,
  platformSpecifics,
} from './machine-platforms.js';
import type { SimWorld } from './sim-world.js';
import { apis, testWorld, until, windowsNodes } from './world-fixture.js';
import type { MachineView } from './world-machines.js';

// A Windows MachineSet on every platform with a machine-api (AWS, Azure and GCP instances are created in
// the simulated cloud; vSphere and Nutanix VMs directly): 2 replicas give 2 Ready nodes, Machines Running
// with a nodeRef and the provider's providerID; scaling to 3 adds one; a private key change replaces the
// 3 one at a time (a watchdog records that never more than one is missing or not Ready); scaling to 1
// removes two, with their instances. Platform None has no Machine API (ADR 0001).

async function checkJoined(
  t: ExecutionContext,
  world: SimWorld,
  platform: string,
  ms: MachineView[],
): Promise<void> {
  const nodes = await machineNodes(world);
  for (const m of ms) {
    const node = nodes.find((n) => n.metadata?.name === m.status?.nodeRef?.name);
    t.truthy(node, `${m.metadata.name} has its node`);
    t.is(node?.metadata?.name, expectedNodeName(platform, m), 'the node name the platform gives');
    t.is(
      node?.metadata?.annotations?.['windowsmachineconfig.openshift.io/machine'],
      `openshift-machine-api/${m.metadata.name}`,
    );
    t.is(node?.metadata?.labels?.['windowsmachineconfig.openshift.io/byoh'], undefined, 'not a BYOH node');
    t.regex(m.spec?.providerID ?? '', PROVIDER_ID[platform] ?? /^$/);
    const ip = m.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
    const [what, holds] = platformSpecifics(platform, world.machineHost(ip), m);
    t.true(holds, what);
  }
}

/** The cloud's own view of the Machines: found through the provider's SDK client, tagged, with the user data. */
async function checkCloud(
  t: ExecutionContext,
  world: SimWorld,
  ms: MachineView[],
  publicKey = world.publicKey,
): Promise<void> {
  const lookup = cloudLookup(world);
  const key = publicKey.split(' ')[1] ?? '-';
  for (const m of ms) {
    const ip = m.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
    const found = await lookup(ip);
    t.is(found?.providerId, m.spec?.providerID, 'the SDK finds the instance behind the Machine');
    t.true(
      Object.entries(found?.tags ?? {}).some(
        ([k, v]) => k.includes(world.cluster.infrastructureName) && v === 'owned',
      ),
      'tagged as owned by the cluster',
    );
    const userData = world.cloud?.instance(m.spec?.providerID ?? '')?.userData ?? '';
    t.true(userData.includes(key), 'created with the user data carrying the public key');
  }
}

/** Replaces the private key; resolves once every Machine is new, with the worst unavailability seen. */
async function rotateKey(
  world: SimWorld,
  before: MachineView[],
): Promise<{ after: MachineView[]; worst: number; publicKey: string }> {
  const api = world.machineApi();
  let worst = 0;
  let watching = true;
  const watchdog = (async () => {
    while (watching) {
      const ms = (await api.machines('win')).filter((m) => m.metadata.deletionTimestamp === undefined);
      const nodes = await machineNodes(world);
      const healthy = ms.filter((m) =>
        nodes.some((n) => n.metadata?.name === m.status?.nodeRef?.name && isReady(n)),
      ).length;
      worst = Math.max(worst, before.length - healthy);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const key = generateEd25519KeyPair();
  await world.createPrivateKeySecret(key.private);
  const old = new Set(before.map((m) => m.metadata.name));
  const after = await until(
    'all replaced',
    async () => {
      const ms = await settled(world, 'win', before.length, 2000).catch(() => undefined);
      return ms && ms.every((m) => !old.has(m.metadata.name)) ? ms : undefined;
    },
    240_000,
  );
  watching = false;
  await watchdog;
  return { after, worst, publicKey: key.public };
}

/** Three MachineReplaced events, and both user data Secrets carry the new key. */
async function checkReplaced(t: ExecutionContext, world: SimWorld, publicKey: string): Promise<void> {
  const events = await apis(world).core.listNamespacedEvent({ namespace: 'openshift-machine-api' });
  t.is(events.items.filter((e) => e.reason === 'MachineReplaced').length, 3);
  for (const namespace of ['openshift-machine-api', 'openshift-cluster-api']) {
    const s = await apis(world).core.readNamespacedSecret({ name: 'windows-user-data', namespace });
    const text = Buffer.from(s.data?.['userData'] ?? '', 'base64').toString();
    t.true(text.includes(publicKey.split(' ')[1] ?? '-'), `${namespace}: user data with the new key`);
  }
}

async function lifecycle(t: ExecutionContext, platform: string): Promise<void> {
  const { world } = await testWorld([], { platform, cloud: hasCloud(platform) });
  t.teardown(() => world.stop());
  // openshift-cluster-api is seeded by the simulated cluster: the user data is copied there too.
  await world.createPrivateKeySecret();
  await world.startOperator();
  const api = world.machineApi();
  await api.createMachineSet({ name: 'win', replicas: 2, platform });
  const two = await settled(world, 'win', 2);
  await checkJoined(t, world, platform, two);
  if (world.cloud) await checkCloud(t, world, two);
  await api.scale('win', 3);
  const three = await settled(world, 'win', 3);
  t.is((await machineNodes(world)).filter(isReady).length, 3);
  const { after, worst, publicKey } = await rotateKey(world, three);
  t.is(worst, 1, 'never more than one Windows Machine missing or not Ready');
  await checkReplaced(t, world, publicKey);
  await checkJoined(t, world, platform, after);
  if (world.cloud) {
    await checkCloud(t, world, after, publicKey);
    for (const m of three)
      t.is(world.cloud.instance(m.spec?.providerID ?? ''), undefined, 'old instance terminated');
  }
  await api.scale('win', 1);
  const one = await settled(world, 'win', 1);
  await until('two nodes gone', async () => ((await windowsNodes(world)).length === 1 ? true : undefined));
  t.is((await windowsNodes(world))[0]?.metadata?.name, one[0]?.status?.nodeRef?.name);
  if (world.cloud) {
    const lookup = cloudLookup(world);
    for (const m of after.filter((x) => x.metadata.name !== one[0]?.metadata.name)) {
      const ip = m.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
      t.is(await lookup(ip), undefined, `${m.metadata.name}: its instance is terminated`);
    }
  }
}

test.serial('None: no Machine API, so Windows Machines get no user data and are never joined', async (t) => {
  const logs: string[] = [];
  const { world } = await testWorld([], { platform: 'None', logSink: (l) => logs.push(l) });
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  await world.startOperator();
  await world.machineApi().createMachineSet({ name: 'win', replicas: 1, platform: 'None' });
  const [m] = await until('a Machine', async () => {
    const l = await world.machineApi().machines('win');
    return l.length === 1 ? l : undefined;
  });
  await new Promise((r) => setTimeout(r, 1500));
  t.true(logs.some((l) => l.includes('Machines are not watched')));
  const secret = await apis(world)
    .core.readNamespacedSecret({ name: 'windows-user-data', namespace: 'openshift-machine-api' })
    .catch(() => undefined);
  t.is(secret, undefined);
  t.is((await world.machineApi().machines('win'))[0]?.status?.phase, 'Provisioning', m?.metadata.name);
  t.deepEqual(await windowsNodes(world), []);
});

for (const platform of MACHINE_PLATFORMS) {
  test.serial(`${platform}: a Windows MachineSet scales 2 → 3, is re-keyed one at a time, scales to 1`, (t) =>
    lifecycle(t, platform),
  );
}
