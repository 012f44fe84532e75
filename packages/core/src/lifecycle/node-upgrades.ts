import type { V1Node } from '@kubernetes/client-node';
import type { HostTarget } from './join-deps.js';
import { isNodeReady } from './node-ops.js';
import type { EventRecorder } from '../kube/event-recorder.js';
import type { ReconcileOutcome } from '../kube/controller.js';
import { Annotations } from '../identity/node-metadata.js';
import { lifecyclePhase, rebootRequested } from './lifecycle-annotations.js';
import type { SourceInstance } from './node-source.js';
import { nodeRef } from './node-patch.js';
import type { UpgradeFlow } from './upgrade-flow.js';

/**
 * Whether a joined node goes through the maintenance flow: the operator left it mid-way (it carries a
 * lifecycle phase: resume, whatever its readiness), or it is Ready with another operator version or a
 * reboot request. A node without a `version` annotation never finished its join, and the join resumes it.
 */
export function needsMaintenance(node: V1Node, version: string): boolean {
  if (lifecyclePhase(node) !== undefined) return true;
  const carried = node.metadata?.annotations?.[Annotations.version];
  if (carried === undefined || !isNodeReady(node)) return false;
  return carried !== version || rebootRequested(node);
}

/** Runs the upgrade flow for a source's controller (BYOH or Machines) and turns its outcome into a requeue. */
export class NodeUpgrades {
  private readonly waiting = new Map<string, string>();

  constructor(
    private readonly flow: UpgradeFlow,
    private readonly events: EventRecorder,
    private readonly retryMs: number,
  ) {}

  async run(
    node: V1Node,
    target: HostTarget,
    signal: AbortSignal,
    instance: SourceInstance,
  ): Promise<ReconcileOutcome | undefined> {
    const name = node.metadata?.name ?? '';
    const outcome = await this.flow.upgrade({ node, target, signal, instance });
    if (outcome.result === 'done') {
      this.waiting.delete(name);
      return undefined;
    }
    // One event per wait, naming the nodes out of service when it began: the list changes with every
    // grant, and a fleet's waiting nodes are looked at on each change, so an event per distinct list cost
    // (waiting nodes × changes) API writes, about 100,000 for 200 nodes under a budget of 20.
    if (outcome.result === 'waiting' && !this.waiting.has(name)) {
      const message =
        `Maintenance of node ${name} waits for the disruption budget: at most ${outcome.max} Windows node(s) ` +
        `unavailable at once, now ${outcome.unavailable.join(', ')}`;
      this.waiting.set(name, message);
      await this.events.record(nodeRef(node), 'Normal', 'MaintenanceWaiting', message);
    }
    return { requeueAfterMs: this.retryMs };
  }
}
