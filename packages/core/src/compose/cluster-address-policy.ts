import type { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type { InstanceAddressPolicy } from '../desired/instance-address.js';
import type { Ipv4Resolver } from '../desired/windows-instances.js';
import { ClusterAddresses } from '../sources/byoh/cluster-addresses.js';

/**
 * The address policy every SSH target passes (issue 27): no loopback (unless allowed), link-local or
 * cluster-internal address, and not the API server's own, whichever flow and source it comes from.
 */
export function clusterAddressPolicy(
  core: CoreV1Api,
  kc: KubeConfig,
  facts: { readonly apiServerInternalUrl: string },
  o: { readonly resolver: Ipv4Resolver; readonly allowLoopback: boolean },
): () => Promise<InstanceAddressPolicy> {
  const apiUrls = [kc.getCurrentCluster()?.server ?? '', facts.apiServerInternalUrl];
  return new ClusterAddresses({
    core,
    apiUrls: () => Promise.resolve(apiUrls),
    resolve: o.resolver,
    allowLoopback: o.allowLoopback,
  }).policy;
}
