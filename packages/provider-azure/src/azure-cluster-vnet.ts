import type { VirtualMachine } from '@azure/arm-compute';
import { CloudNotConfiguredError } from '@wmco/core/provider';

/** One private IP of a VM's NIC and the virtual network its subnet is in. */
export interface NicAddress {
  readonly ip: string;
  readonly vnet: string | undefined;
}

/**
 * The virtual network of a subnet ID (`…/virtualNetworks/<vnet>/subnets/<subnet>`), lower-cased: ARM
 * resource IDs are case-insensitive, and the same network is spelled differently by different resources.
 */
export function vnetOfSubnet(subnetId: string | undefined): string | undefined {
  const m =
    /^(\/subscriptions\/[^/]+\/resourceGroups\/[^/]+\/providers\/Microsoft\.Network\/virtualNetworks\/[^/]+)\/subnets\/[^/]+$/i.exec(
      subnetId ?? '',
    );
  return m?.[1]?.toLowerCase();
}

/** The installer's and the Machine API's ownership tag key on this cluster's resources. */
export const ownedTag = (infrastructureName: string): string => `kubernetes.io_cluster.${infrastructureName}`;

export const isOwned = (vm: VirtualMachine, infrastructureName: string): boolean =>
  vm.tags?.[ownedTag(infrastructureName)] === 'owned';

/**
 * The one virtual network the cluster's own VMs (tagged `kubernetes.io_cluster.<infraID>=owned` by the
 * installer and the Machine API) have their NICs in. `infrastructure/cluster` names only the network's
 * resource group (`networkResourceGroupName`); the name is in the cloud provider config
 * (`vnetName`/`vnetResourceGroup`), which the operator does not read, and is the network those VMs are in.
 */
export function pickClusterVnet(
  ownedVnets: readonly (string | undefined)[],
  infrastructureName: string,
): string {
  const vnets = [...new Set(ownedVnets.flatMap((v) => v ?? []))].sort();
  const tag = `${ownedTag(infrastructureName)}=owned`;
  if (vnets.length === 1) return vnets[0]!;
  if (vnets.length === 0)
    throw new CloudNotConfiguredError(
      'azure',
      `cannot tell the cluster's virtual network: no VM tagged ${tag} has a NIC in one`,
    );
  throw new CloudNotConfiguredError(
    'azure',
    `cannot tell the cluster's virtual network: VMs tagged ${tag} are in ${vnets.join(', ')}`,
  );
}
