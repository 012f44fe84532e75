import { KubeApiError, type KubeClient } from './kube-client.js';
import { nodeLabels, nodeObject, nodeStatus, type NodeIdentity } from './node-object.js';

type NodeJson = {
  metadata: { name: string; uid: string; labels?: Record<string, string> };
  status?: { conditions?: Record<string, unknown>[] };
};
type LeaseJson = { metadata: Record<string, unknown>; spec?: Record<string, unknown> };

const micro = (d: Date): string => d.toISOString().replace(/Z$/, '000Z');
const isCode = (e: unknown, code: number): boolean => e instanceof KubeApiError && e.code === code;

/**
 * Registers the Node (or adopts an existing one with the same name, refreshing its kubelet labels), then
 * updates its status, as the kubelet's `registerWithAPIServer` and `syncNodeStatus` do: the Node is
 * created with its status already set (`initialNode` ends with `setNodeStatus`; the API server keeps a
 * Node's status on create), so it is Ready from its first version.
 */
export async function registerNode(client: KubeClient, id: NodeIdentity): Promise<NodeJson> {
  let node: NodeJson;
  try {
    node = await client.call<NodeJson>('POST', '/api/v1/nodes', {
      ...nodeObject(id),
      status: nodeStatus(id, [], new Date()),
    });
  } catch (e) {
    if (!isCode(e, 409)) throw e;
    node = await client.call<NodeJson>(
      'PATCH',
      `/api/v1/nodes/${id.name}`,
      { metadata: { labels: nodeLabels(id) } },
      'application/merge-patch+json',
    );
  }
  await postStatus(client, id);
  return node;
}

/** The kubelet's `nodeStatusUpdateRetry`: tries of one status update before it waits for the next beat. */
const STATUS_TRIES = 5;

/**
 * The kubelet's node status update (`updateNodeStatus`): reads the Node and patches its status subresource
 * with a strategic merge patch (`nodeutil.PatchNodeStatus`), fresh heartbeat included, up to 5 tries at
 * once. A patch carries no resourceVersion, so another writer's change to the Node (an annotation, a
 * cordon) does not make it fail, as a PUT of the whole status would.
 */
export async function postStatus(client: KubeClient, id: NodeIdentity): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      const node = await client.call<NodeJson>('GET', `/api/v1/nodes/${id.name}`);
      const previous = node.status?.conditions ?? [];
      await client.call(
        'PATCH',
        `/api/v1/nodes/${id.name}/status`,
        { status: nodeStatus(id, previous, new Date()) },
        'application/strategic-merge-patch+json',
      );
      return;
    } catch (e) {
      if (attempt >= STATUS_TRIES) throw e;
    }
  }
}

/**
 * Creates or renews the node's Lease in kube-node-lease (owned by the Node, as the kubelet sets it), reading
 * it first; returns the Lease written.
 */
export async function renewLease(client: KubeClient, nodeName: string, nodeUid: string): Promise<LeaseJson> {
  const path = `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases`;
  const spec = { holderIdentity: nodeName, leaseDurationSeconds: 40, renewTime: micro(new Date()) };
  let lease: LeaseJson | undefined;
  try {
    lease = await client.call<LeaseJson>('GET', `${path}/${nodeName}`);
  } catch (e) {
    if (!isCode(e, 404)) throw e;
  }
  if (lease === undefined) {
    return client.call<LeaseJson>('POST', path, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: nodeName,
        namespace: 'kube-node-lease',
        ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: nodeName, uid: nodeUid }],
      },
      spec,
    });
  }
  return client.call<LeaseJson>('PUT', `${path}/${nodeName}`, { ...lease, spec: { ...lease.spec, ...spec } });
}
