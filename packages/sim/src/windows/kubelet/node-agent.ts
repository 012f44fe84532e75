import { setTimeout as sleep } from 'node:timers/promises';
import { KubeApiError, type KubeClient } from './kube-client.js';
import { nodeLabels, nodeObject, nodeStatus, type NodeIdentity } from './node-object.js';

type NodeJson = {
  metadata: { name: string; uid: string; labels?: Record<string, string> };
  status?: { conditions?: Record<string, unknown>[] };
};
type LeaseJson = { metadata: Record<string, unknown>; spec?: Record<string, unknown> };

const micro = (d: Date): string => d.toISOString().replace(/Z$/, '000Z');
const isCode = (e: unknown, code: number): boolean => e instanceof KubeApiError && e.code === code;

/** Registers the Node (or adopts an existing one with the same name, refreshing its kubelet labels). */
export async function registerNode(client: KubeClient, id: NodeIdentity): Promise<NodeJson> {
  let node: NodeJson;
  try {
    node = await client.call<NodeJson>('POST', '/api/v1/nodes', nodeObject(id));
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

/** Reads the Node and PUTs its status with a fresh heartbeat (the kubelet's node status update). */
export async function postStatus(client: KubeClient, id: NodeIdentity): Promise<void> {
  const node = await client.call<NodeJson & Record<string, unknown>>('GET', `/api/v1/nodes/${id.name}`);
  const previous = node.status?.conditions ?? [];
  await client.call('PUT', `/api/v1/nodes/${id.name}/status`, {
    ...node,
    status: { ...(node.status ?? {}), ...nodeStatus(id, previous, new Date()) },
  });
}

/** Creates or renews the node's Lease in kube-node-lease (owned by the Node, as the kubelet sets it). */
export async function renewLease(client: KubeClient, nodeName: string, nodeUid: string): Promise<void> {
  const path = `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases`;
  const spec = { holderIdentity: nodeName, leaseDurationSeconds: 40, renewTime: micro(new Date()) };
  let lease: LeaseJson | undefined;
  try {
    lease = await client.call<LeaseJson>('GET', `${path}/${nodeName}`);
  } catch (e) {
    if (!isCode(e, 404)) throw e;
  }
  if (lease === undefined) {
    await client.call('POST', path, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: nodeName,
        namespace: 'kube-node-lease',
        ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: nodeName, uid: nodeUid }],
      },
      spec,
    });
    return;
  }
  await client.call('PUT', `${path}/${nodeName}`, { ...lease, spec: { ...lease.spec, ...spec } });
}

export interface HeartbeatOptions {
  readonly nodeUid: string;
  readonly intervalMs: number;
  readonly signal: AbortSignal;
  /** Called after each beat, with the error when it failed. */
  readonly onBeat: (error?: unknown) => void;
}

/**
 * Heartbeats until `signal` aborts: renews the Lease and posts the node status every `intervalMs`.
 * Errors go to `onBeat` and the loop goes on (a kubelet never gives up on the API server).
 */
export async function heartbeat(client: KubeClient, id: NodeIdentity, o: HeartbeatOptions): Promise<void> {
  while (!o.signal.aborted) {
    try {
      await renewLease(client, id.name, o.nodeUid);
      await postStatus(client, id);
      o.onBeat();
    } catch (e) {
      if (o.signal.aborted) return;
      o.onBeat(e);
    }
    await sleep(o.intervalMs, undefined, { signal: o.signal, ref: false }).catch(() => undefined);
  }
}
