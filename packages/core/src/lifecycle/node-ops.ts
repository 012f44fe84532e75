import { type CoreV1Api, type V1Node } from '@kubernetes/client-node';
import { isNotFound } from '../kube/client/api-errors.js';
import { mergePatchNode } from '../kube/client/node-merge-patch.js';
import { Annotations } from '../identity/node-metadata.js';

export async function readNode(api: CoreV1Api, name: string): Promise<V1Node | undefined> {
  try {
    return await api.readNode({ name });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** Merge-patches labels and annotations (a `null` value removes the key). */
export async function patchNodeMetadata(
  api: CoreV1Api,
  name: string,
  metadata: { labels?: Record<string, string | null>; annotations?: Record<string, string | null> },
): Promise<V1Node> {
  return mergePatchNode(api, name, { metadata });
}

/** One merge patch of labels and annotations (a `null` value removes the key) and the cordon. */
export async function patchNode(
  api: CoreV1Api,
  name: string,
  p: {
    labels?: Record<string, string | null>;
    annotations?: Record<string, string | null>;
    unschedulable: boolean;
  },
): Promise<V1Node> {
  const { unschedulable, ...metadata } = p;
  const spec = { unschedulable: unschedulable ? true : null };
  return mergePatchNode(api, name, { metadata, spec });
}

export async function setUnschedulable(api: CoreV1Api, name: string, unschedulable: boolean): Promise<void> {
  await mergePatchNode(api, name, { spec: { unschedulable: unschedulable ? true : null } });
}

export function isNodeReady(node: V1Node | undefined): boolean {
  return (node?.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** The node's first InternalIP (BYOH nodes are matched to instances by it). */
export function nodeInternalIp(node: V1Node): string | undefined {
  return node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
}

/** Whether the hybrid-overlay subnet annotation is on the Node (the join waits for it). */
export function hasHybridOverlaySubnet(n: V1Node): boolean {
  return Boolean(n.metadata?.annotations?.[Annotations.hybridOverlaySubnet]);
}
