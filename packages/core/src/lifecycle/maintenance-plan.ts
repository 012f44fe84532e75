import type { V1Node } from '@kubernetes/client-node';
import { Annotations } from '../identity/node-metadata.js';
import { lifecyclePhase } from './lifecycle-annotations.js';

/** The passes of the shared maintenance flow (`UpgradeFlow`) a joined node may need. */
export type MaintenanceAction = 'upgrade' | 'reboot' | 'resume';

/**
 * Which pass of the maintenance flow a node that `needsMaintenance` gets, and why: the pass the operator
 * left mid-way (a lifecycle phase), an upgrade (another version), or a requested reboot. Every source's
 * decision (`planMachine`, `planByohInstance`) says it the same way.
 */
export function maintenancePlan(
  node: V1Node,
  version: string,
): { readonly action: MaintenanceAction; readonly reason: string } {
  const phase = lifecyclePhase(node);
  if (phase !== undefined)
    return { action: 'resume', reason: `the operator left the node in phase ${phase}: resume that pass` };
  const carried = node.metadata?.annotations?.[Annotations.version] ?? '';
  if (carried !== version)
    return {
      action: 'upgrade',
      reason: `the node has version ${carried}, not ${version}: cordon, drain, reconfigure what differs, uncordon (under the disruption budget)`,
    };
  return {
    action: 'reboot',
    reason: 'a reboot was requested: cordon, drain, reboot, uncordon (under the disruption budget)',
  };
}
