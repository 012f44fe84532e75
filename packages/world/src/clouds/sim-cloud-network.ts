import type { SimCloudInstance } from '@wmco/sim';

/**
 * Which network an instance is created in: the cluster's, or a second network of the same account whose
 * private range overlaps it (another cluster's VPC, a peered network), so the same addresses exist there.
 */
export type SimNetwork = 'cluster' | 'peer';

/** The private IPs of the simulated control plane's instances; no simulated host listens on them. */
export const CONTROL_PLANE_IPS = ['10.0.0.10', '10.0.0.11', '10.0.0.12'];

/** The instances with `address`, in any network, as `SimCloud.instancesAt` reports them. */
export function atAddress(
  all: Iterable<SimCloudInstance>,
  address: string,
  id: (i: SimCloudInstance) => string,
): { id: string; network: string; tags: Record<string, string> }[] {
  return [...all]
    .filter((i) => i.privateIp === address)
    .map((i) => ({ id: id(i), network: i.network, tags: i.tagRecord() }));
}
