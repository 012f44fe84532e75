import {
  FREE_HOST_COSTS,
  KubeVirtMachineCloud,
  type MachineCloud,
  type PowerShellEngineOptions,
  type SimCluster,
  type SimInstanceLauncher,
} from '@wmco/sim';
import type { SimWorldOptions } from './sim-world-options.js';
import { worldLauncher } from './world-machines.js';

/**
 * Hypervisors whose VMs are objects of the cluster's own API: KubeVirt (OpenShift Virtualization) serves
 * kubevirt.io/v1 VirtualMachines. Keyed by platform, as the machine-api provider is chosen.
 */
const HYPERVISORS: Readonly<Record<string, () => KubeVirtMachineCloud>> = {
  KubeVirt: () => new KubeVirtMachineCloud(),
};

/** The VMs behind the world's Machines, and what binds them to the cluster once it runs. */
export interface WorldMachineHosts {
  readonly launcher: SimInstanceLauncher;
  bind(cluster: SimCluster): void;
}

/** The launcher of the world's Machine VMs: in the simulated cloud, on the cluster's hypervisor, or direct. */
export function worldMachineHosts(
  o: Pick<SimWorldOptions, 'platform' | 'costs'>,
  cloud: MachineCloud | undefined,
  powershell: PowerShellEngineOptions | undefined,
): WorldMachineHosts {
  const platform = o.platform ?? 'None';
  const costs = { ...FREE_HOST_COSTS, ...o.costs };
  const hypervisor = Object.hasOwn(HYPERVISORS, platform) ? HYPERVISORS[platform]?.() : undefined;
  return {
    launcher: worldLauncher(costs, cloud ?? hypervisor, powershell),
    bind: (cluster) => hypervisor?.bind(cluster.server.writer),
  };
}
