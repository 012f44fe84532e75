import type { V1Node } from '@kubernetes/client-node';
import type { SimulatedWindowsHost } from '@wmco/sim';
import { GO_WMCO_DAEMON } from './go-wmco-daemon-staging.js';
import { stageGoWmcoMachines } from './go-wmco-machine-staging.js';
import { hasCloud } from './machine-platforms.js';
import { settled } from './machine-wait.js';
import type { SimWorld } from './sim-world.js';
import type { MachineView } from './world-machines.js';
import { testWorld, windowsNodes } from './world-fixture.js';

/** The operator version both the stand-in Go WMCO and wmco-ts run in the takeover tests. */
export const TAKEOVER_VERSION = '2.0.0';
const SET = 'win';

export interface StagedMachines {
  readonly world: SimWorld;
  /** Per Machine (by name order): its node's name and uid, and the VM behind it. */
  readonly machines: readonly { name: string; node: string; uid: string; vm: SimulatedWindowsHost }[];
}

/** The state of the Go WMCO's daemon on a VM; undefined: no such service. */
export const daemonState = (vm: SimulatedWindowsHost): string | undefined =>
  vm.model.scm.get(GO_WMCO_DAEMON)?.state;

/** How many times a service started on the VM. */
export const serviceStarts = (vm: SimulatedWindowsHost): number =>
  vm.model.scm.events.filter((e) => e.action === 'start').length;

type Staged = StagedMachines['machines'][number];

/** The VM at a Machine's InternalIP. */
function vmAt(world: SimWorld, m: MachineView): SimulatedWindowsHost {
  const ip = m.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
  const vm = world.machineHost(ip);
  if (vm === undefined) throw new Error(`no VM at ${ip} for ${m.metadata.name}`);
  return vm;
}

/** A Machine's node (its nodeRef) and the VM at its InternalIP. */
function stagedMachine(world: SimWorld, nodes: readonly V1Node[], m: MachineView): Staged {
  const node = nodes.find((x) => x.metadata?.name === m.status?.nodeRef?.name);
  if (node === undefined) throw new Error(`no node for ${m.metadata.name}`);
  const { name = '', uid = '' } = node.metadata ?? {};
  return { name: m.metadata.name, node: name, uid, vm: vmAt(world, m) };
}

/**
 * `n` Machines on `platform` joined by a wmco-ts operator standing in for the Go WMCO (which is then
 * stopped), staged as the Go WMCO leaves them (`stageGoWmcoMachines`): Nodes with its annotations, no
 * wmco-ts record, WICD running on each VM. A cloud platform gets its simulated cloud.
 */
export async function goWmcoMachines(platform: string, n: number): Promise<StagedMachines> {
  const { world } = await testWorld([], { platform, cloud: hasCloud(platform), driftRepairIntervalMs: 0 });
  await world.createPrivateKeySecret();
  const go = await world.startOperator('go-wmco', { version: TAKEOVER_VERSION });
  await world.machineApi().createMachineSet({ name: SET, replicas: n, platform });
  const ms = await settled(world, SET, n, 240_000);
  await go.stop();
  await stageGoWmcoMachines(world);
  const nodes = await windowsNodes(world);
  const machines = ms.map((m) => stagedMachine(world, nodes, m)).sort((a, b) => a.name.localeCompare(b.name));
  return { world, machines };
}
