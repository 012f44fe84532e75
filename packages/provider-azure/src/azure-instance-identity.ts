import type { VirtualMachine } from '@azure/arm-compute';
import type { HttpClient } from '@azure/core-rest-pipeline';
import { azureSdk } from './azure-sdk.js';
import {
  CloudNotConfiguredError,
  pickInClusterNetwork,
  type CloudContext,
  type CloudInstance,
  type InstanceIdentity,
} from '@wmco/core/provider';
import { azureClientsFor, type AzureClients } from './azure-cloud-access.js';
import { isOwned, pickClusterVnet, vnetOfSubnet, type NicAddress } from './azure-cluster-vnet.js';
import { azureApiError, azureCall } from './azure-errors.js';

const NETWORK_API_VERSION = '2024-05-01';

function computerName(vm: VirtualMachine): string {
  return vm.instanceView?.computerName ?? vm.osProfile?.computerName ?? vm.name ?? '';
}

export function toCloudInstance(vm: VirtualMachine, privateIp: string, vnet?: string): CloudInstance {
  const id = vm.id ?? '';
  const zone = vm.zones?.[0];
  return {
    ...(vnet ? { network: vnet } : {}),
    instanceId: id,
    name: vm.name ?? '',
    // The Azure cloud provider's provider ID: azure://<VM resource id>.
    providerId: `azure://${id}`,
    // cloud-provider-azure's zone label: <location>-<zone>, or the location for a VM in no zone.
    zone: zone ? `${vm.location}-${zone}` : vm.location,
    privateIp,
    privateDnsName: computerName(vm).toLowerCase(),
    tags: { ...vm.tags },
  };
}

interface NicBody {
  readonly properties?: {
    readonly ipConfigurations?: {
      readonly properties?: {
        readonly privateIPAddress?: string;
        readonly subnet?: { readonly id?: string };
      };
    }[];
  };
}

function refusal(statusCode: number, text: string | null | undefined): Error {
  let error: { code?: unknown; message?: unknown } = {};
  try {
    error = (JSON.parse(text ?? '{}') as { error?: typeof error }).error ?? {};
  } catch {
    // not JSON: the status alone says it was refused
  }
  return azureApiError('networkInterfaces.get', {
    code: typeof error.code === 'string' ? error.code : 'AuthorizationFailed',
    statusCode,
    message: typeof error.message === 'string' ? error.message : `HTTP ${statusCode}`,
  });
}

/**
 * One NIC's private IPs, each with the virtual network of its subnet, read through the compute client's
 * authenticated pipeline (a Microsoft.Network resource).
 */
async function nicAddresses(c: AzureClients, http: HttpClient, nicId: string): Promise<NicAddress[]> {
  const url = `${c.endpoint}${nicId}?api-version=${NETWORK_API_VERSION}`;
  const { createPipelineRequest } = (await azureSdk()).pipeline;
  const res = await c.compute.pipeline.sendRequest(http, createPipelineRequest({ url, method: 'GET' }));
  // A refusal (e.g. credentials without Microsoft.Network/networkInterfaces/read) is the cloud's error,
  // not "no address": otherwise a missing permission would read as "no instance has this IP".
  if (res.status === 401 || res.status === 403) throw refusal(res.status, res.bodyAsText);
  if (res.status !== 200) return [];
  const body = JSON.parse(res.bodyAsText ?? '{}') as NicBody;
  return (body.properties?.ipConfigurations ?? []).flatMap(({ properties: p }) =>
    p?.privateIPAddress ? [{ ip: p.privateIPAddress, vnet: vnetOfSubnet(p.subnet?.id) }] : [],
  );
}

/** The private IPs of a VM's network interfaces, with their virtual networks. */
async function addresses(c: AzureClients, http: HttpClient, vm: VirtualMachine): Promise<NicAddress[]> {
  const ids = (vm.networkProfile?.networkInterfaces ?? []).flatMap((n) => n.id ?? []);
  return (await Promise.all(ids.map((id) => nicAddresses(c, http, id)))).flat();
}

/** Reads one VM fresh, with its instance view (tags change under us). */
export async function getVm(c: AzureClients, name: string): Promise<VirtualMachine> {
  return azureCall('virtualMachines.get', () =>
    c.compute.virtualMachines.get(c.resourceGroup, name, { expand: 'instanceView' }),
  );
}

/** The VMs of the resource group with `address`, and the virtual networks of the cluster's own VMs. */
async function scan(
  c: AzureClients,
  address: string,
  infrastructureName: string,
): Promise<{ hits: CloudInstance[]; ownedVnets: (string | undefined)[] }> {
  const http = (await azureSdk()).pipeline.createDefaultHttpClient();
  const hits: CloudInstance[] = [];
  const ownedVnets: (string | undefined)[] = [];
  for await (const vm of c.compute.virtualMachines.list(c.resourceGroup)) {
    const nics = await addresses(c, http, vm);
    if (isOwned(vm, infrastructureName)) ownedVnets.push(...nics.map((n) => n.vnet));
    const hit = nics.find((n) => n.ip === address);
    if (hit && vm.name) hits.push(toCloudInstance(await getVm(c, vm.name), address, hit.vnet));
  }
  return { hits, ownedVnets };
}

/**
 * Finds the Azure VM behind a BYOH address: the VM in the cluster's resource group one of whose network
 * interfaces has that private IP in the cluster's virtual network, returned with its instance view (the
 * computer name). Virtual networks may use the same ranges, so the address in another one is refused.
 */
export class AzureInstanceIdentity implements InstanceIdentity {
  constructor(private readonly ctx: CloudContext | undefined) {}

  async identify(address: string): Promise<CloudInstance | undefined> {
    const infra = this.ctx?.infrastructureName ?? '';
    const c = await azureClientsFor(this.ctx);
    if (infra === '')
      throw new CloudNotConfiguredError('azure', 'infrastructure/cluster has no status.infrastructureName');
    const { hits, ownedVnets } = await azureCall('virtualMachines.list', () => scan(c, address, infra));
    if (hits.length === 0) return undefined;
    return pickInClusterNetwork('azure', address, hits, pickClusterVnet(ownedVnets, infra));
  }
}
