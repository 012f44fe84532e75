import test from 'ava';
import { Kubectl, ensureKubectl } from '@wmco/sim';
import { isReady, machineNodes, settled } from './machine-wait.js';
import { testWorld, until, windowsNodes } from './world-fixture.js';

// `kubectl scale machineset` (Debian's kubectl: PATCH .../machinesets/<n>/scale, merge patch of an
// autoscaling/v1 Scale) drives the simulated machine-api, and the operator joins and removes the nodes.

test.serial('kubectl scale machineset adds and removes Windows nodes', async (t) => {
  const missing = ensureKubectl();
  if (missing) return t.fail(missing);
  const { world } = await testWorld([], { platform: 'VSphere' });
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  await world.startOperator();
  await world.machineApi().createMachineSet({ name: 'win', replicas: 1, platform: 'VSphere' });
  await settled(world, 'win', 1);
  const kubectl = new Kubectl(world.adminKubeconfig);
  const ns = ['-n', 'openshift-machine-api'];

  const up = await kubectl.run(['scale', 'machineset', 'win', '--replicas=2', ...ns]);
  t.is(up.code, 0, up.stderr);
  t.is(up.stdout.trim(), 'machineset.machine.openshift.io/win scaled');
  const two = await settled(world, 'win', 2);
  t.is((await machineNodes(world)).filter(isReady).length, 2);
  const table = await kubectl.run(['get', 'machineset', 'win', ...ns]);
  t.regex(table.stdout, /^win\s+2\s+2\s+2\s+2\s+/m, 'DESIRED CURRENT READY AVAILABLE');

  const down = await kubectl.run(['scale', 'machineset/win', '--current-replicas=2', '--replicas=1', ...ns]);
  t.is(down.code, 0, down.stderr);
  const [left] = await settled(world, 'win', 1);
  await until('one Windows node left', async () =>
    (await windowsNodes(world)).length === 1 ? true : undefined,
  );
  t.is((await windowsNodes(world))[0]?.metadata?.name, left?.status?.nodeRef?.name);
  t.true(
    two.some((m) => m.metadata.name === left?.metadata.name),
    'the survivor is one of the two',
  );
});
