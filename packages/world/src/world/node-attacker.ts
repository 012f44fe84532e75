/**
 * A compromised node's API credentials, for attack tests in the simulated world.
 *
 * `await nodeAttacker(world, 'win-a')` gives a Kubernetes client with the kubelet identity of node
 * `win-a`: a client certificate CN=system:node:win-a, O=system:nodes, signed by the simulated cluster's
 * CA (the CA that signs the kubelets' approved client CSRs), so the API server's Node authorizer and
 * NodeRestriction admission treat it exactly as they treat that host's kubelet. It can do what a real
 * kubelet identity can, and nothing more:
 *
 *   setAnnotations({ k: 'v', gone: null })   merge patch of metadata.annotations (null removes a key)
 *   setLabels({ k: 'v' })                    merge patch of metadata.labels; node-restriction.kubernetes.io/
 *                                            and other restricted kubernetes.io / k8s.io keys are refused (403)
 *   setInternalIp('192.0.2.9')               status.addresses with its InternalIP replaced (added if absent)
 *   setAddresses([{ type, address }])        status.addresses replaced as given
 *   core                                     the raw CoreV1Api as the node, for any other attempt
 *
 * Each setter writes the attacker's own Node unless `node` names another one (which the API server
 * refuses: 403 `nodes "<other>" is forbidden: node "win-a" is not allowed to modify node "<other>"`);
 * refusals reject with client-node's `ApiException` (`.code`, `.body`). Each resolves to the Node as
 * stored. Note that the host's simulated kubelet keeps posting its own status (its InternalIP) at every
 * heartbeat, as a real kubelet does: a test that needs a forged address to stay stops that host's kubelet
 * first, or asserts on what the operator did in between.
 */
import {
  CoreV1Api,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type V1Node,
  type V1NodeAddress,
} from '@kubernetes/client-node';
import type { SimWorld } from './sim-world.js';

const MERGE = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

export interface NodeAttacker {
  /** The node whose identity this is. */
  readonly nodeName: string;
  /** The Core API as that node. */
  readonly core: CoreV1Api;
  setAnnotations(annotations: Readonly<Record<string, string | null>>, node?: string): Promise<V1Node>;
  setLabels(labels: Readonly<Record<string, string | null>>, node?: string): Promise<V1Node>;
  setInternalIp(address: string, node?: string): Promise<V1Node>;
  setAddresses(addresses: readonly V1NodeAddress[], node?: string): Promise<V1Node>;
}

/** `addresses` with the InternalIP set to `address` (the first one replaced, or one added). */
export function withInternalIp(addresses: readonly V1NodeAddress[], address: string): V1NodeAddress[] {
  const at = addresses.findIndex((a) => a.type === 'InternalIP');
  const internal = { type: 'InternalIP', address };
  if (at < 0) return [internal, ...addresses];
  return addresses.map((a, i) => (i === at ? internal : a));
}

/** A client with the kubelet identity of `nodeName` (see the file header). */
export async function nodeAttacker(world: SimWorld, nodeName: string): Promise<NodeAttacker> {
  const kc = new KubeConfig();
  kc.loadFromString(
    await world.cluster.server.clientCertKubeconfig(`system:node:${nodeName}`, ['system:nodes']),
  );
  const core = kc.makeApiClient(CoreV1Api);
  const patchMeta = (metadata: object, node: string): Promise<V1Node> =>
    core.patchNode({ name: node, body: { metadata } }, MERGE);
  const setAddresses = (addresses: readonly V1NodeAddress[], node = nodeName): Promise<V1Node> =>
    core.patchNodeStatus({ name: node, body: { status: { addresses } } }, MERGE);
  return {
    nodeName,
    core,
    setAnnotations: (annotations, node = nodeName) => patchMeta({ annotations }, node),
    setLabels: (labels, node = nodeName) => patchMeta({ labels }, node),
    setAddresses,
    async setInternalIp(address, node = nodeName) {
      // Reading another Node is refused too: then the forged list is just the InternalIP.
      const current = await core.readNode({ name: node }).catch(() => undefined);
      return setAddresses(withInternalIp(current?.status?.addresses ?? [], address), node);
    },
  };
}
