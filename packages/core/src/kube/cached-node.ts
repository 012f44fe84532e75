import type { V1Node } from '@kubernetes/client-node';

/**
 * What the Windows-node informers keep of a Node: metadata (without managedFields, which every cache
 * drops), spec, and of the status the addresses, each condition's type and status (`isNodeReady`) and the
 * Ready condition's lastTransitionTime (`RecentConvergence`: a node whose readiness changed since its last
 * look is looked at again; until 2026-11-28 the time was dropped here, so that rule never held in the
 * operator), which is all the controllers read from their caches (writes are patches, never a PUT of a
 * cached Node).
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
        : {
            conditions: conditions.map((c) =>
              c.type === 'Ready' && c.lastTransitionTime !== undefined
                ? { type: c.type, status: c.status, lastTransitionTime: c.lastTransitionTime }
                : { type: c.type, status: c.status },
            ),
          }),
    },
  };
}
