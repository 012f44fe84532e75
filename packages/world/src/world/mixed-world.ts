import type { V1Node } from '@kubernetes/client-node';
import { newRootContainer } from '@wmco/core';
import { type InstanceStatus } from '@wmco/core/internal';
import type { HostCosts, SimulatedWindowsHost } from '@wmco/sim';
import type { CliContext } from '@wmco/operator';
import { buildProgram } from '@wmco/operator';
import { settled } from './machine-wait.js';
import type { SimWorld } from './sim-world.js';
import type { MachineView } from './world-machines.js';
import { VERSION_A, versionOf } from './upgrade-fixture.js';
import { NS, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';
import { Workload } from './workload.js';

/** The MachineSet of the mixed world. */
export const MACHINE_SET = 'winms';

export interface MixedWorld {
  readonly world: SimWorld;
  /** Node name → the simulated host behind it (BYOH hosts and Machine VMs). */
  readonly hosts: ReadonlyMap<string, SimulatedWindowsHost>;
  /** Node names of the Machines. */
  readonly machineNodes: readonly string[];
  /** The operators' log lines so far (for `logOnFailure`). */
  readonly logs: readonly string[];
}

/**
 * Issue 14's done-when world: two BYOH hosts and a vSphere MachineSet of two Machines, all four joined by
 * the operator at `version` (stopped again unless `keep`), on the simulated costs of upgrade-fixture.ts.
 */
export async function mixedWorld(
  version = VERSION_A,
  o: { keep?: boolean; rebootMs?: number } = {},
): Promise<MixedWorld> {
  const costs: Partial<HostCosts> = { powershellStartMs: 100 };
  if (o.rebootMs !== undefined) costs.rebootMs = o.rebootMs;
  const { world, logs } = await testWorld([{ hostname: 'BYOH-A' }, { hostname: 'BYOH-B' }], {
    platform: 'VSphere',
    costs,
  });
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
  const first = await world.startOperator('wmco-a', { version });
  await world.machineApi().createMachineSet({ name: MACHINE_SET, replicas: 2, platform: 'VSphere' });
  for (const h of world.hosts.hosts)
    await until(`${h.address} Ready`, phaseIs(world, h.address, 'Ready'), 120_000);
  const machines = await settled(world, MACHINE_SET, 2, 180_000);
  await until(`four nodes annotated with ${version}`, async () => {
    const nodes = await windowsNodes(world);
    return nodes.length === 4 && nodes.every((n) => versionOf(n) === version) ? true : undefined;
  });
  if (o.keep !== true) await first.stop();
  const hosts = new Map<string, SimulatedWindowsHost>();
  for (const h of world.hosts.hosts) hosts.set(h.spec.hostname.toLowerCase(), h.sim);
  const machineNodes = machines.map((m) => machineHost(world, m, hosts));
  return { world, hosts, machineNodes, logs };
}

/** Adds the simulated VM behind a Machine to `hosts` under its node name; returns that name. */
function machineHost(world: SimWorld, m: MachineView, hosts: Map<string, SimulatedWindowsHost>): string {
  const ip = m.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
  const host = world.machineHost(ip);
  const name = m.status?.nodeRef?.name ?? '';
  if (host === undefined) throw new Error(`no simulated host behind Machine ${m.metadata.name}`);
  hosts.set(name, host);
  return name;
}

/** A PDB-protected workload of one pod per node (minAvailable: all but one). */
export async function webWorkload(world: SimWorld, replicas = 4): Promise<Workload> {
  const workload = new Workload(world, 'web', NS, replicas);
  await workload.start(replicas - 1);
  return workload;
}

/** Every distinct phase the Machine statuses (`machine.<name>`) went through while `sampling` ran. */
export function machinePhases(world: SimWorld, machines: readonly string[]): { stop: () => Set<string> } {
  const seen = new Set<string>();
  const timer = setInterval(() => {
    for (const name of machines)
      void world
        .status(`machine.${name}`)
        .then((s: InstanceStatus | undefined) => s && seen.add(s.phase))
        .catch(() => undefined);
  }, 50);
  return {
    stop: () => {
      clearInterval(timer);
      return seen;
    },
  };
}

/** `wmco status [args]` against the world, as text. */
export async function statusText(world: SimWorld, args: readonly string[] = []): Promise<string> {
  const out: string[] = [];
  const ctx: CliContext = {
    container: newRootContainer(),
    builtinProviders: [],
    stdout: (s) => out.push(s),
    stderr: (s) => out.push(s),
    env: {},
  };
  await (
    await buildProgram(ctx)
  )
    .exitOverride()
    .parseAsync(['status', '--kubeconfig', world.adminKubeconfig, '-n', NS, ...args], { from: 'user' });
  return out.join('\n');
}

export function isCordoned(n: V1Node | undefined): boolean {
  return n?.spec?.unschedulable === true;
}
