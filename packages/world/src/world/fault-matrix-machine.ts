import type { ExecutionContext } from 'ava';
import { logOnFailure } from './log-on-failure.test-helper.js';
import { settled } from './machine-wait.js';
import type { SimWorld } from './sim-world.js';
import { testWorld, until, windowsNodes } from './world-fixture.js';

const WAIT_MS = 240_000;

/** The Machine's VM address, once it has one. */
function vmAddress(m: { status?: { addresses?: { type: string; address: string }[] } }): string | undefined {
  return m.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
}

/**
 * The matrix row for a user deleting a Machine mid-join (after its kubelet service was created): the
 * Machine goes (its finalizer released, its VM gone), leaves no Node and no status entry, and the
 * MachineSet's replacement joins through the one join lane.
 */
export async function machineDeletedMidJoin(t: ExecutionContext): Promise<void> {
  const { world, logs } = await testWorld([], { platform: 'AWS', cloud: true, parallelJoins: 1 });
  t.teardown(() => world.stop());
  await logOnFailure(t, logs, () => deleteMidJoin(t, world));
}

async function deleteMidJoin(t: ExecutionContext, world: SimWorld): Promise<void> {
  await world.createPrivateKeySecret();
  await world.startOperator();
  const api = world.machineApi();
  await api.createMachineSet({ name: 'win', replicas: 1, platform: 'AWS' });
  const first = await until(
    'a Machine whose VM has its kubelet service',
    async () =>
      (await api.machines('win')).find((m) => {
        const scm = world.machineHost(vmAddress(m) ?? '')?.model.scm;
        return scm?.events.some((e) => e.action === 'create' && e.name === 'kubelet');
      }),
    WAIT_MS,
    20,
  );
  const address = vmAddress(first) ?? '';
  const key = `machine.${first.metadata.name}`;
  t.truthy(await world.status(key), 'the join had a status entry');
  await api.deleteMachine(first.metadata.name);
  const [replacement] = await settled(world, 'win', 1, WAIT_MS);
  t.not(replacement?.metadata.name, first.metadata.name, 'the MachineSet replaced it');
  await until(
    'the deleted Machine gone, with its VM',
    async () =>
      (await api.machines('win')).every((m) => m.metadata.name !== first.metadata.name) &&
      world.machineHost(address) === undefined
        ? true
        : undefined,
    WAIT_MS,
  );
  const nodes = (await windowsNodes(world)).map((n) => n.metadata?.name);
  t.deepEqual(nodes, [replacement?.status?.nodeRef?.name], 'no Node left for the deleted Machine');
  t.log(`status of the deleted Machine: ${JSON.stringify(await world.status(key))}`);
  await until(
    'its status entry gone',
    async () => ((await world.status(key)) === undefined ? true : undefined),
    60_000,
  );
}
