import type { V1Node } from '@kubernetes/client-node';
import { isNodeReady } from './node-ops.js';

/**
 * The decision for a node configured with this version and key, whatever its source: its drift check,
 * Ready or not (a node that is not Ready gets the check that restarts what stopped, not a join:
 * `docs/plan-and-drift.md`, *A node that is not Ready*).
 */
export function driftCheckPlan(node: V1Node): { readonly action: 'check-drift'; readonly reason: string } {
  if (isNodeReady(node))
    return { action: 'check-drift', reason: 'configured with this version and key: periodic drift check' };
  return {
    action: 'check-drift',
    reason: 'configured with this version and key, not Ready: drift check (restarts what stopped)',
  };
}
