import type { WorkQueueLanes } from '../kube/work-queue.js';
import { Annotations } from '../join/node-metadata.js';
import { ENTRY_PREFIX, NODE_PREFIX, type ByohView } from './byoh-view.js';
import { isNodeReady, nodeInternalIp } from './node-ops.js';

/** Workers kept for drift checks and key rotation of joined nodes, and for removals (each lane). */
export const MAINTAIN_WORKERS = 2;
export const REMOVE_WORKERS = 2;

/**
 * The lanes of the instances queue: `join` (entries without a Ready node of this version: joins and
 * re-joins, at most `parallelJoins` at once), `maintain` (entries whose node is Ready and current: drift
 * checks, key rotation) and `remove` (BYOH nodes whose entry is gone). Hosts that do not answer hold at
 * most the join lane; drift checks and removals keep their own workers.
 */
export function instanceLanes(view: ByohView, version: string, parallelJoins: number): WorkQueueLanes {
  const joined = (entry: string): boolean =>
    view.windowsNodes().some((n) => {
      const a = n.metadata?.annotations ?? {};
      const mine = a[Annotations.instanceAddress] === entry || nodeInternalIp(n) === entry;
      return mine && a[Annotations.version] === version && isNodeReady(n);
    });
  return {
    laneOf: (key) => {
      if (key.startsWith(NODE_PREFIX)) return 'remove';
      return joined(key.slice(ENTRY_PREFIX.length)) ? 'maintain' : 'join';
    },
    limits: { join: parallelJoins, maintain: MAINTAIN_WORKERS, remove: REMOVE_WORKERS },
  };
}
