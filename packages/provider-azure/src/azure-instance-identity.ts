import type { VirtualMachine } from '@azure/arm-compute';
import type { HttpClient } from '@azure/core-rest-pipeline';
import { azureSdk } from './azure-sdk.js';
import type { CloudContext, CloudInstance, InstanceIdentity } from '@wmco/core/provider';
import { azureClientsFor, type AzureClients } from './azure-cloud-access.js';
import { azureApiError, azureCall } from './azure-errors.js';

const NETWORK_API_VERSION = '2024-05-01';

function computerName(vm: VirtualMachine): string {
  return vm.instanceView?.computerName ?? vm.osProfile?.computerName ?? vm.name ?? '';
}

export function toCloudInstance(vm: VirtualMachine, privateIp: string): CloudInstance {
  const id = vm.id ?? '';
  const zone = vm.zones?.[0];
  return {
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
    readonly ipConfigurations?: { readonly properties?: { readonly privateIPAddress?: string } }[];
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

/** One NIC's private IPs, read through the compute client's authenticated pipeline (a Microsoft.Network resource). */
async function nicIps(c: AzureClients, http: HttpClient, nicId: string): Promise<string[]> {
  const url = `${c.endpoint}${nicId}?api-version=${NETWORK_API_VERSION}`;
  const { createPipelineRequest } = (await azureSdk()).pipeline;
  const res = await c.compute.pipeline.sendRequest(http, createPipelineRequest({ url, method: 'GET' }));
  // A refusal (e.g. credentials without Microsoft.Network/networkInterfaces/read) is the cloud's error,
  // not "no address": otherwise a missing permission would read as "no instance has this IP".
  if (res.status === 401 || res.status === 403) throw refusal(res.status, res.bodyAsText);
  if (res.status !== 200) return [];
  const body = JSON.parse(res.bodyAsText ?? '{}') as NicBody;
  return (body.properties?.ipConfigurations ?? []).flatMap((ip) => ip.properties?.privateIPAddress ?? []);
}

/** The private IPs of a VM's network interfaces. */
async function privateIps(c: AzureClients, vm: VirtualMachine): Promise<string[]> {
  const http = (await azureSdk()).pipeline.createDefaultHttpClient();
  const ids = (vm.networkProfile?.networkInterfaces ?? []).flatMap((n) => n.id ?? []);
  return (await Promise.all(ids.map((id) => nicIps(c, http, id)))).flat();
}

/** Reads one VM fresh, with its instance view (tags change under us). */
export async function getVm(c: AzureClients, name: string): Promise<VirtualMachine> {
  return azureCall('virtualMachines.get', () =>
    c.compute.virtualMachines.get(c.resourceGroup, name, { expand: 'instanceView' }),
  );
}

/**
 * Finds the Azure VM behind a BYOH address: the VM in the cluster's resource group one of whose network
 * interfaces has that private IP, returned with its instance view (the computer name).
 */
export class AzureInstanceIdentity implements InstanceIdentity {
  constructor(private readonly ctx: CloudContext | undefined) {}

  async identify(address: string): Promise<CloudInstance | undefined> {
    const c = await azureClientsFor(this.ctx);
    return azureCall('virtualMachines.list', async () => {
      for await (const vm of c.compute.virtualMachines.list(c.resourceGroup)) {
        if ((await privateIps(c, vm)).includes(address) && vm.name)
          return toCloudInstance(await getVm(c, vm.name), address);
      }
      return undefined;
    });
  }
}
