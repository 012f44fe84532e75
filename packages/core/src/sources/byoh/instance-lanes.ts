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
 * The lanes of the instances queue: `join` (entries without a Ready node of this version: joins,
 * re-joins and the drift checks of nodes that are not Ready, whose hosts may not answer; at most
 * `parallelJoins` at once), `maintain` (entries whose node is Ready and current: drift
 * checks, key rotation) and `remove` (BYOH nodes whose entry is gone). Hosts that do not answer hold at
 * most the join lane; drift checks and removals keep their own workers.
 *
 * The queue asks `laneOf` about its waiting keys again whenever the generation moves on, so with 1,000
 * nodes a scan of the nodes per question made that quadratic: the joined entries are indexed once per
 * change of the Windows nodes instead, and the generation follows the joined entries, not every change.
 */
export function instanceLanes(view: ByohView, version: string, parallelJoins: number): WorkQueueLanes {
  let index: { revision: number; joined: Set<string>; generation: number } | undefined;
  // Re-indexed at each change of the Windows nodes; the generation moves on only when the joined entries
  // differ, not at every heartbeat or annotation: the queue asks about its waiting keys once per generation.
  const current = (): { joined: Set<string>; generation: number } => {
    const revision = view.windowsNodesRevision();
    if (index?.revision === revision) return index;
    const joined = joinedEntries(view.windowsNodes(), version);
    const generation =
      index && sameSet(index.joined, joined) ? index.generation : (index?.generation ?? 0) + 1;
    index = { revision, joined, generation };
    return index;
  };
  return {
    laneOf: (key) => {
      if (key.startsWith(NODE_PREFIX)) return 'remove';
      return current().joined.has(key.slice(ENTRY_PREFIX.length)) ? 'maintain' : 'join';
    },
    limits: { join: parallelJoins, maintain: MAINTAIN_WORKERS, remove: REMOVE_WORKERS },
    // A key's lane depends on it and on the joined entries only.
    generation: () => current().generation,
  };
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}
