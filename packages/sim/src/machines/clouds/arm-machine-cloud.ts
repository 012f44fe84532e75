import type { SimArm } from '../../cloud/arm/sim-arm.js';
import {
  clusterIdOf,
  specMap,
  specString,
  type CloudVm,
  type CloudVmRequest,
  type MachineCloud,
} from './machine-cloud.js';

/**
 * machine-api-provider-azure against the simulated ARM: a VM named after the Machine (computer name the
 * same), admin user `capi`, the user data Secret as `osProfile.customData`, tagged
 * `kubernetes.io_cluster.<clusterID>: owned` plus the providerSpec's `tags`, in its `zone`; providerID
 * `azure:///subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Compute/virtualMachines/<name>`;
 * addresses Hostname and InternalDNS (the computer name) and InternalIP (its reconciler's `Update`).
 */
export class ArmMachineCloud implements MachineCloud {
  readonly platform = 'Azure';

  constructor(private readonly arm: SimArm) {}

  create(req: CloudVmRequest): CloudVm {
    // ARM refuses a Windows VM whose computer name (here the Machine name) is longer than 15 characters:
    // why the OpenShift docs limit Windows MachineSet names on Azure to 9 characters.
    if (req.windows && req.machineName.length > 15)
      throw new Error(
        'InvalidParameter: Windows computer name cannot be more than 15 characters long, be entirely ' +
          'numeric, or contain the following characters: ` ~ ! @ # $ % ^ & * ( ) = + _ [ ] { } \\ | ; : . \' " , < > / ?.',
      );
    const clusterId = clusterIdOf(req);
    const zone = specString(req.providerSpec, 'zone');
    const vm = this.arm.addInstance({
      privateIp: req.address,
      name: req.machineName,
      ...(zone ? { zone } : {}),
      tags: {
        ...specMap(req.providerSpec, 'tags'),
        ...(clusterId ? { [`kubernetes.io_cluster.${clusterId}`]: 'owned' } : {}),
      },
      ...(req.userData === undefined ? {} : { userData: req.userData }),
    });
    return {
      providerId: `azure://${this.arm.state.vmId(vm)}`,
      addresses: [
        { type: 'Hostname', address: vm.name },
        { type: 'InternalDNS', address: vm.name },
        { type: 'InternalIP', address: req.address },
      ],
      computerName: vm.name,
      username: 'capi',
      bootScript: req.userData,
      metadataRoutes: [],
      terminate: () => void this.arm.state.deleteVm(vm.name),
    };
  }
}
