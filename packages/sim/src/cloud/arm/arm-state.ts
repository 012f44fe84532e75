import { randomUUID } from 'node:crypto';
import { SimCloudInstance, type CloudInstanceSpec } from '../cloud-instance.js';

export interface ArmOperation {
  readonly id: string;
  readonly started: string;
  /** Polls left before the operation reports Succeeded (ARM answers InProgress first). */
  pending: number;
}

/** One subscription's resource group as the simulated ARM holds it. */
export class ArmState {
  /** By lower-cased VM name: ARM resource names are case-insensitive. */
  readonly vms = new Map<string, SimCloudInstance>();
  readonly operations = new Map<string, ArmOperation>();
  readonly subscriptionId = randomUUID();

  /**
   * The cluster's virtual network, in the resource group (the installer names it `<infraID>-vnet`); VMs'
   * NICs are in its subnet unless their spec names another virtual network, whose range may overlap.
   */
  readonly clusterVnet: string;

  constructor(
    readonly resourceGroup: string,
    readonly location: string,
  ) {
    this.clusterVnet = `${resourceGroup.replace(/-rg$/, '')}-vnet`;
  }

  addVm(spec: CloudInstanceSpec): SimCloudInstance {
    const network = spec.network ?? this.clusterVnet;
    const vm = new SimCloudInstance(randomUUID(), { ...spec, zone: spec.zone ?? '1', network });
    this.vms.set(spec.name.toLowerCase(), vm);
    return vm;
  }

  /** DELETE of a VM (with its NIC): true when it existed. */
  deleteVm(name: string): boolean {
    return this.vms.delete(name.toLowerCase());
  }

  rgPath(): string {
    return `/subscriptions/${this.subscriptionId}/resourceGroups/${this.resourceGroup}`;
  }

  vmId(vm: SimCloudInstance): string {
    return `${this.rgPath()}/providers/Microsoft.Compute/virtualMachines/${vm.name}`;
  }

  nicId(vm: SimCloudInstance): string {
    return `${this.rgPath()}/providers/Microsoft.Network/networkInterfaces/${vm.name}-nic`;
  }

  /** The ID of the subnet a VM's NIC is in: `<vnet ID>/subnets/worker-subnet`. */
  subnetId(vm: SimCloudInstance): string {
    return `${this.rgPath()}/providers/Microsoft.Network/virtualNetworks/${vm.network}/subnets/worker-subnet`;
  }

  newOperation(): ArmOperation {
    const op = { id: randomUUID(), started: new Date().toISOString(), pending: 1 };
    this.operations.set(op.id, op);
    return op;
  }
}
