import type { V1Node } from '@kubernetes/client-node';
import type { WorkQueueLanes } from '../../kube/work-queue.js';
import { Annotations } from '../../identity/node-metadata.js';
import { ENTRY_PREFIX, NODE_PREFIX, type ByohView } from './byoh-view.js';
import { isNodeReady, nodeInternalIp } from '../../lifecycle/node-ops.js';

/** Workers kept for drift checks and key rotation of joined nodes, and for removals (each lane). */
export const MAINTAIN_WORKERS = 2;
export const REMOVE_WORKERS = 2;

/** The entries (instance address annotation and internal IP) of Ready nodes of `version`. */
function joinedEntries(nodes: readonly V1Node[], version: string): Set<string> {
  const joined = new Set<string>();
  for (const n of nodes) {
    const a = n.metadata?.annotations ?? {};
    if (a[Annotations.version] !== version || !isNodeReady(n)) continue;
    const address = a[Annotations.instanceAddress];
    const ip = nodeInternalIp(n);
    if (address !== undefined) joined.add(address);
    if (ip !== undefined) joined.add(ip);
  }
  return joined;
}

/**
 * The lanes of the instances queue: `join` (entries without a Ready node of this version: joins and
 * re-joins, at most `parallelJoins` at once), `maintain` (entries whose node is Ready and current: drift
 * checks, key rotation) and `remove` (BYOH nodes whose entry is gone). Hosts that do not answer hold at
 * most the join lane; drift checks and removals keep their own workers.
 *
 * The queue asks `laneOf` for every waiting key each time it looks for one with room, so with 1,000 nodes
 * a scan of the nodes per question made that quadratic: the joined entries are indexed once per change of
 * the Windows nodes instead.
 */
export function instanceLanes(view: ByohView, version: string, parallelJoins: number): WorkQueueLanes {
  let index: { revision: number; joined: Set<string> } | undefined;
  const joined = (entry: string): boolean => {
    const revision = view.windowsNodesRevision();
    if (index?.revision !== revision)
      index = { revision, joined: joinedEntries(view.windowsNodes(), version) };
    return index.joined.has(entry);
  };
  return {
    laneOf: (key) => {
      if (key.startsWith(NODE_PREFIX)) return 'remove';
      return joined(key.slice(ENTRY_PREFIX.length)) ? 'maintain' : 'join';
    },
    limits: { join: parallelJoins, maintain: MAINTAIN_WORKERS, remove: REMOVE_WORKERS },
    // A key's lane depends on it and on the Windows nodes only.
    generation: () => view.windowsNodesRevision(),
  };
}
