import type { V1Node } from '@kubernetes/client-node';
import { drainNode, type DrainResult } from '../kube/client/drain.js';
import type { JoinDeps } from './join-deps.js';
import { nodeRef } from './node-patch.js';

/** How long a drain may wait, and what it does then. */
export interface DrainBounds {
  /** Without `forceAfterMs`: give up after this long. With it: the wait for the deleted pods to go. */
  readonly timeoutMs: number;
  readonly retryMs?: number | undefined;
  /**
   * The admin's drain timeout (operator setting `--drain-timeout`; ADR 0037): after this long the pods a
   * PodDisruptionBudget keeps are deleted and the removal or upgrade goes on. Absent: wait (the default).
   */
  readonly forceAfterMs?: number | undefined;
  readonly signal: AbortSignal;
}

const seconds = (ms: number): number => Math.round(ms / 1000);

/**
 * Drains a cordoned node for a removal or an upgrade (`what`), with its events on the Node: one
 * `DrainWaiting` when a PodDisruptionBudget first refuses, and a `DrainTimeout` naming the pods the admin's
 * drain timeout deletes.
 */
export async function drainWithEvents(
  deps: Pick<JoinDeps, 'core' | 'events' | 'logger'>,
  node: V1Node,
  what: 'Removal' | 'Upgrade' | 'Reboot',
  bounds: DrainBounds,
): Promise<DrainResult> {
  const name = node.metadata?.name ?? '';
  const ref = nodeRef(node);
  const then =
    bounds.forceAfterMs === undefined
      ? `giving up after ${seconds(bounds.timeoutMs)}s`
      : `deleting them after ${seconds(bounds.forceAfterMs)}s (the drain timeout)`;
  let warned = false;
  return drainNode(deps.core, name, {
    timeoutMs: bounds.timeoutMs,
    ...(bounds.retryMs === undefined ? {} : { retryMs: bounds.retryMs }),
    forceAfterMs: bounds.forceAfterMs,
    signal: bounds.signal,
    logger: deps.logger,
    onWaiting: async (pods) => {
      if (warned) return;
      warned = true;
      const message = `Draining node ${name} waits for ${pods.join(', ')} (a PodDisruptionBudget refuses the eviction); ${then}`;
      await deps.events.record(ref, 'Warning', 'DrainWaiting', message);
    },
    onForced: async (pods) => {
      const message = `${what} of node ${name}: the drain timeout of ${seconds(bounds.forceAfterMs ?? 0)}s ran out; deleting ${pods.join(', ')} despite their PodDisruptionBudget`;
      deps.logger.warn({ node: name, pods }, 'drain timeout: deleting the pods evictions could not move');
      await deps.events.record(ref, 'Warning', 'DrainTimeout', message);
    },
  });
}
