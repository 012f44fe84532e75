import { WmcoError } from './errors.js';

/** What a provider found at an address outside the cluster's network. */
export interface OutsideNetworkMatch {
  /** The BYOH address looked up. */
  readonly address: string;
  /** The cloud's id of the instance that has the address. */
  readonly instanceId: string;
  /** The network that instance is in (VPC ID, virtual network ID, GCE network). */
  readonly network: string;
  /** The cluster's network, which it is not in. */
  readonly clusterNetwork: string;
}

/**
 * `InstanceIdentity.identify` found instances with the address only outside the cluster's network (private
 * ranges overlap between VPCs): another network's instance is never taken for the host, tagged or joined.
 */
export class InstanceOutsideClusterNetworkError extends WmcoError {
  constructor(
    readonly providerId: string,
    readonly match: OutsideNetworkMatch,
  ) {
    super(
      'InstanceOutsideClusterNetwork',
      `${providerId}: instance ${match.instanceId} has private IP ${match.address} but is in network ` +
        `${match.network}, not the cluster's network ${match.clusterNetwork}`,
    );
  }
}

/**
 * Of the instances a cloud found with `address`, the one in `clusterNetwork`; undefined when there were
 * none; `InstanceOutsideClusterNetworkError` when all of them are in other networks. Networks are compared
 * as given: a provider passes them in one canonical spelling.
 */
export function pickInClusterNetwork<T extends { readonly instanceId: string; readonly network?: string }>(
  providerId: string,
  address: string,
  found: readonly T[],
  clusterNetwork: string,
): T | undefined {
  const ours = found.find((i) => i.network === clusterNetwork);
  if (ours || found.length === 0) return ours;
  const other = found[0]!;
  throw new InstanceOutsideClusterNetworkError(providerId, {
    address,
    instanceId: other.instanceId,
    network: other.network ?? '(unknown)',
    clusterNetwork,
  });
}
