import test, { type ExecutionContext } from 'ava';
import { isReady, machineNodes, settled } from './machine-wait.js';
import { apis, testWorld, until, windowsNodes } from './world-fixture.js';

// A Windows MachineSet on each directly provisioned platform: 2 replicas give 2 Ready nodes, Machines
// Running with a nodeRef; scaling to 3 adds one, to 1 removes two; on vSphere and Nutanix the node
// carries the Machine's name (HostRename). Platform None has no Machine API (ADR 0001): its provider
// has no MachineAccess or UserDataFormat, so the operator writes no user data and joins no Machine.

async function scaleUpAndDown(t: ExecutionContext, platform: string): Promise<void> {
  const { world } = await testWorld([], { platform });
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  await world.startOperator();
  const api = world.machineApi();
  await api.createMachineSet({ name: 'win', replicas: 2, platform });
  const two = await settled(world, 'win', 2);
  const nodes = await machineNodes(world);
  t.is(nodes.length, 2);
  for (const m of two) {
    const node = nodes.find((n) => n.metadata?.name === m.status?.nodeRef?.name);
    t.truthy(node, `${m.metadata.name} has its node`);
    t.is(
      node?.metadata?.annotations?.['windowsmachineconfig.openshift.io/machine'],
      `openshift-machine-api/${m.metadata.name}`,
    );
    t.is(node?.metadata?.labels?.['windowsmachineconfig.openshift.io/byoh'], undefined, 'not a BYOH node');
    t.regex(
      node?.metadata?.annotations?.['windowsmachineconfig.openshift.io/pub-key-hash'] ?? '',
      /^[0-9a-f]{64}$/,
    );
    t.is(node?.metadata?.name, m.metadata.name, 'renamed to the Machine name');
  }
  await api.scale('win', 3);
  await settled(world, 'win', 3);
  t.is((await machineNodes(world)).filter(isReady).length, 3);
  await api.scale('win', 1);
  const one = await settled(world, 'win', 1);
  await until('two nodes gone', async () => ((await windowsNodes(world)).length === 1 ? true : undefined));
  t.is((await windowsNodes(world))[0]?.metadata?.name, one[0]?.status?.nodeRef?.name);
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

for (const platform of ['VSphere', 'Nutanix']) {
  test.serial(`${platform}: a Windows MachineSet scales 2 → 3 → 1 with Ready nodes`, (t) =>
    scaleUpAndDown(t, platform),
  );
}
