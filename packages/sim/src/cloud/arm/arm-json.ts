import type { SimCloudInstance } from '../cloud-instance.js';
import type { ArmState } from './arm-state.js';

/** A Microsoft.Compute/virtualMachines resource (the fields the project and the CLIs read). */
export function vmJson(
  state: ArmState,
  vm: SimCloudInstance,
  instanceView: boolean,
): Record<string, unknown> {
  const view = {
    computerName: vm.name,
    osName: 'Windows Server 2022 Datacenter',
    osVersion: '10.0.20348',
    statuses: [
      { code: 'ProvisioningState/succeeded', level: 'Info', displayStatus: 'Provisioning succeeded' },
      { code: 'PowerState/running', level: 'Info', displayStatus: 'VM running' },
    ],
  };
  return {
    id: state.vmId(vm),
    name: vm.name,
    type: 'Microsoft.Compute/virtualMachines',
    location: state.location,
    zones: [vm.zone],
    tags: vm.tagRecord(),
    properties: {
      vmId: vm.id,
      hardwareProfile: { vmSize: 'Standard_D4s_v5' },
      storageProfile: { osDisk: { osType: 'Windows', name: `${vm.name}-osdisk`, createOption: 'FromImage' } },
      osProfile: { computerName: vm.name, adminUsername: 'capi' },
      networkProfile: { networkInterfaces: [{ id: state.nicId(vm), properties: { primary: true } }] },
      provisioningState: 'Succeeded',
      ...(instanceView ? { instanceView: view } : {}),
    },
  };
}

/** A Microsoft.Network/networkInterfaces resource with one IP configuration. */
export function nicJson(state: ArmState, vm: SimCloudInstance): Record<string, unknown> {
  return {
    id: state.nicId(vm),
    name: `${vm.name}-nic`,
    type: 'Microsoft.Network/networkInterfaces',
    location: state.location,
    properties: {
      provisioningState: 'Succeeded',
      ipConfigurations: [
        {
          id: `${state.nicId(vm)}/ipConfigurations/ipconfig1`,
          name: 'ipconfig1',
          properties: {
            privateIPAddress: vm.privateIp,
            privateIPAllocationMethod: 'Static',
            primary: true,
            subnet: { id: state.subnetId(vm) },
          },
        },
      ],
      virtualMachine: { id: state.vmId(vm) },
    },
  };
}
