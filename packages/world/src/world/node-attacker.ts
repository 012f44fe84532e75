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
 *   squat({ annotations, labels, internalIp }) creates its own Node before any host joined under that
 *                                            name (a kubelet may create the Node of its own name)
 *   forge({ owner, internalIp, annotations }) what a compromised joined node writes: the annotations on
 *                                            its Node, and the InternalIP by restarting its host's kubelet
 *                                            with another --node-ip (needs the host's index)
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
  squat(spec: SquattedNode): Promise<V1Node>;
  forge(f: ForgedNode): Promise<void>;
}

/** What a compromised node writes on its own Node. */
export interface ForgedNode {
  /** Its owner (instance-address) annotation. */
  readonly owner?: string;
  /** The InternalIP its kubelet reports (the kubelet restarted with this `--node-ip`). */
  readonly internalIp?: string;
  /** Any other annotations (e.g. the cloud-applied-tags list). */
  readonly annotations?: Readonly<Record<string, string>>;
}

/** A Node created by a kubelet identity before any join: what it carries from the start. */
export interface SquattedNode {
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly internalIp?: string;
}

const OWNER = 'windowsmachineconfig.openshift.io/instance-address';

/** `addresses` with the InternalIP set to `address` (the first one replaced, or one added). */
export function withInternalIp(addresses: readonly V1NodeAddress[], address: string): V1NodeAddress[] {
  const at = addresses.findIndex((a) => a.type === 'InternalIP');
  const internal = { type: 'InternalIP', address };
  if (at < 0) return [internal, ...addresses];
  return addresses.map((a, i) => (i === at ? internal : a));
}

/**
 * A client with the kubelet identity of `nodeName` (see the file header); `host`: the index in
 * `world.hosts` of the host that runs that kubelet, for `forge` of an address.
 */
export async function nodeAttacker(world: SimWorld, nodeName: string, host?: number): Promise<NodeAttacker> {
  const kc = new KubeConfig();
  kc.loadFromString(
    await world.cluster.server.clientCertKubeconfig(`system:node:${nodeName}`, ['system:nodes']),
  );
  const core = kc.makeApiClient(CoreV1Api);
  const patchMeta = (metadata: object, node: string): Promise<V1Node> =>
    core.patchNode({ name: node, body: { metadata } }, MERGE);
  const setAddresses = (addresses: readonly V1NodeAddress[], node = nodeName): Promise<V1Node> =>
    core.patchNodeStatus({ name: node, body: { status: { addresses } } }, MERGE);
  const setAnnotations = (annotations: object, node = nodeName): Promise<V1Node> =>
    patchMeta({ annotations }, node);
  return {
    nodeName,
    core,
    setAnnotations,
    setLabels: (labels, node = nodeName) => patchMeta({ labels }, node),
    setAddresses,
    async squat(spec) {
      const { labels = {}, annotations = {} } = spec;
      await core.createNode({ body: { metadata: { name: nodeName, labels, annotations } } });
      const ip = spec.internalIp;
      return ip === undefined
        ? core.readNode({ name: nodeName })
        : setAddresses([{ type: 'InternalIP', address: ip }]);
    },
    async forge(f) {
      const annotations = { ...f.annotations, ...(f.owner === undefined ? {} : { [OWNER]: f.owner }) };
      if (Object.keys(annotations).length > 0) await setAnnotations(annotations);
      if (f.internalIp !== undefined) await restartKubeletWithNodeIp(world, host, f.internalIp);
    },
    async setInternalIp(address, node = nodeName) {
      // Reading another Node is refused too: then the forged list is just the InternalIP.
      const current = await core.readNode({ name: node }).catch(() => undefined);
      return setAddresses(withInternalIp(current?.status?.addresses ?? [], address), node);
    },
  };
}

/** The host's kubelet restarted with `--node-ip=<ip>`, as an administrator of that host could. */
async function restartKubeletWithNodeIp(
  world: SimWorld,
  host: number | undefined,
  ip: string,
): Promise<void> {
  const scm = host === undefined ? undefined : world.hosts.hosts[host]?.sim.model.scm;
  const kubelet = scm?.get('kubelet');
  if (!scm || !kubelet) throw new Error(`host ${String(host)} runs no kubelet`);
  await scm.stop('kubelet');
  kubelet.commandLine = /--node-ip=\S+/.test(kubelet.commandLine)
    ? kubelet.commandLine.replace(/--node-ip=\S+/, `--node-ip=${ip}`)
    : `${kubelet.commandLine} --node-ip=${ip}`;
  await scm.start('kubelet');
}
