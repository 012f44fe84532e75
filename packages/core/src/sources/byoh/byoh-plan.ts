import type { V1Node } from '@kubernetes/client-node';
import { Annotations } from '../../identity/node-metadata.js';
import { maintenancePlan, type MaintenanceAction } from '../../lifecycle/maintenance-plan.js';
import { isNodeReady } from '../../lifecycle/node-ops.js';
import { needsMaintenance } from '../../lifecycle/node-upgrades.js';

/**
 * What the operator does next to an admitted `windows-instances` entry: `join` (configure the host, also
 * again), a maintenance pass (`upgrade`, `reboot`, `resume`), `rotate-key` (a Ready node of this version
 * joined with another key), or `check-drift` (the periodic check of a Ready node of this version and key).
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
  return 'the node is not Ready: configure again';
}

/**
 * The one decision of what an admitted BYOH instance needs next, from its own Node (`ownNode`: at its
 * address and owned by it), the operator key's hash and version: `InstancesReconciler` acts on it and
 * `wmco plan` prints it.
 */
export function planByohInstance(node: V1Node | undefined, publicKeyHash: string, version: string): ByohPlan {
  if (node !== undefined && needsMaintenance(node, version)) return maintenancePlan(node, version);
  const a = node?.metadata?.annotations ?? {};
  if (node === undefined || a[Annotations.version] !== version || !isNodeReady(node))
    return { action: 'join', reason: joinReason(node, version) };
  if (a[Annotations.pubKeyHash] !== publicKeyHash)
    return {
      action: 'rotate-key',
      reason: 'the node was configured with another key: authorize the new key',
    };
  return { action: 'check-drift', reason: 'configured with this version and key: periodic drift check' };
}
