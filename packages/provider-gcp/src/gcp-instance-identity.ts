import type { protos } from '@google-cloud/compute';
import type { CloudContext, CloudInstance, InstanceIdentity } from '@wmco/core/provider';
import { gcpClientsFor, type GcpClients } from './gcp-cloud-access.js';
import { gcpCall } from './gcp-errors.js';

type Instance = protos.google.cloud.compute.v1.IInstance;

const lastSegment = (url: string | null | undefined): string => (url ?? '').split('/').pop() ?? '';

export function toCloudInstance(project: string, i: Instance): CloudInstance {
  const zone = lastSegment(i.zone);
  const name = i.name ?? '';
  return {
    instanceId: String(i.id ?? ''),
    name,
    // The GCE cloud provider's provider ID: gce://<project>/<zone>/<instance name>.
    providerId: `gce://${project}/${zone}/${name}`,
    zone,
    privateIp: i.networkInterfaces?.[0]?.networkIP ?? '',
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

/**
 * Finds the GCE instance behind a BYOH address: the instance in the cluster's project, in a zone of the
 * cluster's region, whose network interface has that `networkIP`. The aggregated list is read whole and
 * matched here, so no server-side filter syntax on a repeated field is relied on.
 */
export class GcpInstanceIdentity implements InstanceIdentity {
  constructor(private readonly ctx: CloudContext | undefined) {}

  async identify(address: string): Promise<CloudInstance | undefined> {
    const c = await gcpClientsFor(this.ctx);
    try {
      return await gcpCall('instances.aggregatedList', async () => {
        for await (const [scope, list] of c.instances.aggregatedListAsync({ project: c.project }, c.call)) {
          if (!scope.startsWith(`zones/${c.region}-`)) continue;
          const hit = (list.instances ?? []).find((i) =>
            i.networkInterfaces?.some((n) => n.networkIP === address),
          );
          if (hit) return toCloudInstance(c.project, hit);
        }
        return undefined;
      });
    } finally {
      await c.close();
    }
  }
}
