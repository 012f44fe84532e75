import type { V1Node } from '@kubernetes/client-node';
import type { SimWorld } from './sim-world.js';
import type { MachineView } from './world-machines.js';
import { until, windowsNodes } from './world-fixture.js';

export function isReady(n: V1Node): boolean {
  return (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Windows nodes joined from Machines: annotated with their Machine and configured (version set). */
export async function machineNodes(world: SimWorld): Promise<V1Node[]> {
  return (await windowsNodes(world)).filter(
    (n) =>
      n.metadata?.annotations?.['windowsmachineconfig.openshift.io/machine'] !== undefined &&
      n.metadata.annotations['windowsmachineconfig.openshift.io/version'] !== undefined,
  );
}

/** Waits until the MachineSet has exactly `n` Machines, all Running with a nodeRef to a Ready, configured node. */
export async function settled(
  world: SimWorld,
  machineSet: string,
  n: number,
  timeoutMs = 120_000,
): Promise<MachineView[]> {
  const api = world.machineApi();
  return until(
    `${machineSet}: ${n} Running Machines with Ready nodes`,
    async () => {
      const ms = (await api.machines(machineSet)).filter((m) => m.metadata.deletionTimestamp === undefined);
      const all = await api.machines(machineSet);
      if (ms.length !== n || all.length !== n) return undefined;
      const nodes = await machineNodes(world);
      const ok = ms.every(
        (m) =>
          m.status?.phase === 'Running' &&
          nodes.some((x) => x.metadata?.name === m.status?.nodeRef?.name && isReady(x)),
      );
      return ok && nodes.length >= n ? ms : undefined;
    },
    timeoutMs,
  );
}
