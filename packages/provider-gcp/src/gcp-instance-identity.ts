import type { protos } from '@google-cloud/compute';
import {
  CloudNotConfiguredError,
  pickInClusterNetwork,
  type CloudContext,
  type CloudInstance,
  type InstanceIdentity,
} from '@wmco/core/provider';
import { gcpClientsFor, type GcpClients } from './gcp-cloud-access.js';
import { networkWith, ownedLabel, pickClusterNetwork } from './gcp-cluster-network.js';
import { gcpCall } from './gcp-errors.js';

type Instance = protos.google.cloud.compute.v1.IInstance;

const lastSegment = (url: string | null | undefined): string => (url ?? '').split('/').pop() ?? '';

/** The address (the one asked for, else the first interface's) and the network it is on. */
function addressing(i: Instance, address: string | undefined): { privateIp: string; network?: string } {
  const privateIp = address ?? i.networkInterfaces?.[0]?.networkIP ?? '';
  const network = networkWith(i, privateIp);
  return network ? { privateIp, network } : { privateIp };
}

export function toCloudInstance(project: string, i: Instance, address?: string): CloudInstance {
  const zone = lastSegment(i.zone);
  const name = i.name ?? '';
  return {
    ...addressing(i, address),
    instanceId: String(i.id ?? ''),
    name,
    // The GCE cloud provider's provider ID: gce://<project>/<zone>/<instance name>.
    providerId: `gce://${project}/${zone}/${name}`,
    zone,
    // GCE zonal internal DNS: <name>.<zone>.c.<project>.internal.
    privateDnsName: `${name}.${zone}.c.${project}.internal`,
    tags: Object.fromEntries(Object.entries(i.labels ?? {})),
  };
}

/** Reads one instance fresh (labels and their fingerprint change under us). */
export async function getInstance(c: GcpClients, instance: CloudInstance): Promise<Instance> {
  const [i] = await gcpCall('instances.get', () =>
    c.instances.get({ project: c.project, zone: instance.zone, instance: instance.name }, c.call),
  );
  return i;
}

/** The instances of the cluster's region with `address`, and those labelled as the cluster's own. */
async function regionInstances(
  c: GcpClients,
  address: string,
  infrastructureName: string,
): Promise<{ hits: Instance[]; owned: Instance[] }> {
  const hits: Instance[] = [];
  const owned: Instance[] = [];
  for await (const [scope, list] of c.instances.aggregatedListAsync({ project: c.project }, c.call)) {
    if (!scope.startsWith(`zones/${c.region}-`)) continue;
    for (const i of list.instances ?? []) {
      if (i.networkInterfaces?.some((n) => n.networkIP === address)) hits.push(i);
      if (i.labels?.[ownedLabel(infrastructureName)] === 'owned') owned.push(i);
    }
  }
  return { hits, owned };
}

/**
 * Finds the GCE instance behind a BYOH address: the instance in the cluster's project, in a zone of the
 * cluster's region, on the cluster's VPC network, whose network interface has that `networkIP`. Networks
 * of one project may use the same ranges, so the address on another network is refused. The aggregated
 * list is read whole, once, and matched here, so no server-side filter syntax on a repeated field is
 * relied on; the cluster's network comes from the same list.
 */
export class GcpInstanceIdentity implements InstanceIdentity {
  constructor(private readonly ctx: CloudContext | undefined) {}

  async identify(address: string): Promise<CloudInstance | undefined> {
    const infra = this.ctx?.infrastructureName ?? '';
    const c = await gcpClientsFor(this.ctx);
    try {
      if (infra === '')
        throw new CloudNotConfiguredError('gcp', 'infrastructure/cluster has no status.infrastructureName');
      const { hits, owned } = await gcpCall('instances.aggregatedList', () =>
        regionInstances(c, address, infra),
      );
      if (hits.length === 0) return undefined;
      const found = hits.map((i) => toCloudInstance(c.project, i, address));
      return pickInClusterNetwork('gcp', address, found, pickClusterNetwork(owned, infra));
    } finally {
      await c.close();
    }
  }
}
