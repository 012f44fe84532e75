import type { protos } from '@google-cloud/compute';
import { CloudNotConfiguredError } from '@wmco/core/provider';

type Instance = protos.google.cloud.compute.v1.IInstance;
type Nic = protos.google.cloud.compute.v1.INetworkInterface;

/**
 * A VPC network as `projects/<project>/global/networks/<name>`, whatever the endpoint its URL was served
 * under (a Shared VPC network keeps its host project's name).
 */
export function networkPath(url: string | null | undefined): string | undefined {
  return /projects\/[^/]+\/global\/networks\/[^/]+$/.exec(url ?? '')?.[0];
}

/** The network of the interface holding `address`. */
export function networkWith(i: Instance, address: string): string | undefined {
  const nic: Nic | undefined = i.networkInterfaces?.find((n) => n.networkIP === address);
  return networkPath(nic?.network);
}

/** The installer's and the Machine API's ownership label key on this cluster's instances. */
export const ownedLabel = (infrastructureName: string): string =>
  `kubernetes-io-cluster-${infrastructureName}`;

/**
 * The one VPC network the cluster's own instances (labelled `kubernetes-io-cluster-<infraID>=owned` by the
 * installer and the Machine API) are on, by their first interface. `infrastructure/cluster` does not carry
 * it on GCP (`GCPPlatformStatus` has project, region, labels, endpoints) nor does the installer's cloud
 * provider config (subnetwork-name, network-project-id only); the GCE cloud provider, likewise, takes it
 * from its own instance. None, or several, cannot say.
 */
export function pickClusterNetwork(owned: readonly Instance[], infrastructureName: string): string {
  const networks = [
    ...new Set(owned.flatMap((i) => networkPath(i.networkInterfaces?.[0]?.network) ?? [])),
  ].sort();
  const label = `${ownedLabel(infrastructureName)}=owned`;
  if (networks.length === 1) return networks[0]!;
  if (networks.length === 0)
    throw new CloudNotConfiguredError(
      'gcp',
      `cannot tell the cluster's network: no instance is labelled ${label}`,
    );
  throw new CloudNotConfiguredError(
    'gcp',
    `cannot tell the cluster's network: instances labelled ${label} are on ${networks.join(', ')}`,
  );
}
