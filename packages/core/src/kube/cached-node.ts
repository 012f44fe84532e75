import type { V1Node } from '@kubernetes/client-node';

/**
 * What the Windows-node informers keep of a Node: metadata (without managedFields, which every cache
 * drops), spec, and of the status the addresses and each condition's type and status (`isNodeReady`),
 * which is all the controllers read from their caches (writes are patches, never a PUT of a cached Node).
 * A real Node's status also carries its images (often tens of kilobytes), capacity, allocatable, node info,
 * daemon endpoints and the conditions' heartbeats and messages; at 1,000 Windows nodes, held by the BYOH
 * and the Machine source's caches both, that is most of their memory.
 */
export function cachedNode(node: V1Node): V1Node {
  const status = node.status;
  if (status === undefined) return node;
  const { addresses, conditions } = status;
  return {
    ...node,
    status: {
      ...(addresses === undefined ? {} : { addresses }),
      ...(conditions === undefined
        ? {}
        : { conditions: conditions.map((c) => ({ type: c.type, status: c.status })) }),
    },
  };
}
