import type { V1Node } from '@kubernetes/client-node';
import { Annotations } from '../../identity/node-metadata.js';
import { maintenancePlan, type MaintenanceAction } from '../../lifecycle/maintenance-plan.js';
import { isNodeReady } from '../../lifecycle/node-ops.js';
import { driftCheckPlan } from '../../lifecycle/drift-check-plan.js';
import { needsMaintenance } from '../../lifecycle/node-upgrades.js';

/**
 * What the operator does next to an admitted `windows-instances` entry: `join` (configure the host, also
 * again), a maintenance pass (`upgrade`, `reboot`, `resume`), `rotate-key` (a Ready node of this version
 * joined with another key), or `check-drift` (the drift check of a node of this version and key, Ready or
 * not).
 */
export type ByohAction = 'join' | MaintenanceAction | 'rotate-key' | 'check-drift';

export interface ByohPlan {
  readonly action: ByohAction;
  readonly reason: string;
}

/** Why a host without a usable node of this version is configured (again). */
function joinReason(node: V1Node | undefined, version: string): string {
  const carried = node?.metadata?.annotations?.[Annotations.version];
  if (node === undefined) return 'no node yet: configure the host';
  if (carried === undefined) return 'the node never finished its join: configure the host';
  if (carried !== version)
    return `the node has version ${carried}, not ${version}, and is not Ready: configure again`;
  return 'the node was configured with another key and is not Ready: configure again';
}

/**
 * The one decision of what an admitted BYOH instance needs next, from its own Node (`ownNode`: at its
 * address and owned by it), the operator key's hash and version: `InstancesReconciler` acts on it and
 * `wmco plan` prints it.
 *
 * A node of this version and key that is not Ready gets a drift check, not a join (until 2026-11-28 it was
 * configured again): the check restarts what stopped and puts back what changed, and leaves a host that
 * matches its spec alone, while a join cordons the node and, when the kubelet is not Ready by the join's
 * deadline, stops every service. A kubelet that is only late (a busy API server, a slow network) then
 * lost its workloads and came back to a host with nothing running. Upstream counts such a node as up to
 * date and leaves the repair to WICD's periodic resync on the node, which the drift check stands for.
 */
export function planByohInstance(node: V1Node | undefined, publicKeyHash: string, version: string): ByohPlan {
  if (node !== undefined && needsMaintenance(node, version)) return maintenancePlan(node, version);
  if (node === undefined || node.metadata?.annotations?.[Annotations.version] !== version)
    return { action: 'join', reason: joinReason(node, version) };
  return currentVersionPlan(node, publicKeyHash, version);
}

/** A node configured with this version: its key rotated, or its drift check (Ready or not). */
function currentVersionPlan(node: V1Node, publicKeyHash: string, version: string): ByohPlan {
  const ready = isNodeReady(node);
  if (node.metadata?.annotations?.[Annotations.pubKeyHash] !== publicKeyHash) {
    if (!ready) return { action: 'join', reason: joinReason(node, version) };
    return {
      action: 'rotate-key',
      reason: 'the node was configured with another key: authorize the new key',
    };
  }
  return driftCheckPlan(node);
}
