import { isDeepStrictEqual } from 'node:util';
import type { CoreV1Api, V1ConfigMap } from '@kubernetes/client-node';
import { PROXY_VARIABLES, withoutProxyCredentials } from '../desired/proxy-env.js';
import { servicesConfigMap } from '../desired/services-configmap.js';
import type { NodeDesign } from '../desired/node-spec.js';
import { isConflict, isNotFound } from '../kube/client/api-errors.js';

/**
 * Whether the ConfigMap in the cluster is the one to publish. Compared as maps: the API server returns map
 * keys sorted (Go's encoding), not in the order built here, so comparing serialised text never matched
 * and the ConfigMap was re-created in a loop.
 */
function isCurrent(existing: V1ConfigMap, body: V1ConfigMap): boolean {
  return existing.immutable === true && isDeepStrictEqual(existing.data ?? {}, body.data ?? {});
}

/**
 * What the ConfigMap records of a node's design (desired/node-spec.ts): its services and its machine
 * variables. Every publisher (the join, the keeper, drift repair, a reconfigure) hands in the design it
 * converges to, so they all publish one content: with a cluster Proxy, the proxy is in the services'
 * environments and the machine variables are empty, whatever the operator's own proxy variables are.
 */
export type PublishedDesign = Pick<NodeDesign, 'services' | 'envVars'>;

/**
 * Publishes `windows-services-<version>`, the immutable record of what this version installs
 * (ARCHITECTURE §6). A ConfigMap of that name with other content (edited, or left by a broken run) is
 * deleted and created again, as upstream's configmap controller does.
 */
export async function publishServicesConfigMap(
  api: CoreV1Api,
  namespace: string,
  version: string,
  design: PublishedDesign,
): Promise<void> {
  // Proxy credentials go to the hosts, never into this readable record.
  const environmentVars = withoutProxyCredentials(design.envVars);
  const body = servicesConfigMap(version, namespace, {
    services: design.services,
    files: [],
    environmentVars,
    watchedEnvironmentVars: [...PROXY_VARIABLES],
  }) as V1ConfigMap;
  const name = body.metadata?.name ?? '';
  try {
    const existing = await api.readNamespacedConfigMap({ name, namespace });
    if (isCurrent(existing, body)) return;
    await api.deleteNamespacedConfigMap({ name, namespace });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  try {
    await api.createNamespacedConfigMap({ namespace, body });
  } catch (err) {
    if (!isConflict(err)) throw err;
  }
}
