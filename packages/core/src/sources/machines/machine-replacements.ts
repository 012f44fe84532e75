import type { CustomObjectsApi, V1Node } from '@kubernetes/client-node';
import type { ReconcileOutcome } from '../../kube/controller.js';
import type { EventRecorder } from '../../kube/event-recorder.js';
import type { Logger } from '../../kube/logger.js';
import { Annotations } from '../../join/node-metadata.js';
import { machineKey, nodeMachine } from './machine-join-identity.js';
import {
  MACHINE_GROUP,
  MACHINE_VERSION,
  machineRef,
  windowsMachine,
  type MachineResource,
  type WindowsMachine,
} from './machine-object.js';

/**
 * Replaces a joined Machine (deleting it so its MachineSet creates a new one) when that may disrupt it
 * now. The one-at-a-time rule below stands in for the shared disruption budget of the lifecycle
 * (`--max-unavailable`, issue 14), which can implement this interface instead.
 */
export interface MachineReplacements {
  replace(m: WindowsMachine, why: string): Promise<ReconcileOutcome | undefined>;
}

export interface ReplacementDeps {
  readonly custom: CustomObjectsApi;
  readonly events: EventRecorder;
  readonly logger: Logger;
  readonly machines: () => readonly MachineResource[];
  readonly windowsNodes: () => readonly V1Node[];
  /** How long to wait before asking again when a replacement is not allowed yet. */
  readonly retryMs: number;
  /** Runs before a Machine is deleted (the user data must carry the new key before a replacement boots). */
  readonly prepare?: () => Promise<unknown>;
}

/**
 * Upstream's `isAllowedDeletion` (reference §1.11): a Machine of a MachineSet may be deleted only while
 * no other Machine of that set is unhealthy: unhealthy = replicas − healthy, healthy = Running or with a
 * nodeRef, its node carrying the version annotation, not being deleted; at most one at a time. A Machine
 * without a MachineSet, or of a set with one replica, may always go.
 */
export class OneAtATimeReplacements implements MachineReplacements {
  /** Machines this operator deleted that its informer may still show as healthy. */
  private readonly deleted = new Set<string>();
  /** One decision at a time: two workers must not both see the other's Machine as healthy. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(private readonly d: ReplacementDeps) {}

  replace(m: WindowsMachine, why: string): Promise<ReconcileOutcome | undefined> {
    const next = this.turn.then(() => this.decide(m, why));
    this.turn = next.catch(() => undefined);
    return next;
  }

  private async decide(m: WindowsMachine, why: string): Promise<ReconcileOutcome | undefined> {
    if (m.machineSet !== undefined) {
      const replicas = await this.replicas(m);
      const unhealthy = replicas - this.healthy(m.machineSet, m.namespace);
      if (replicas > 1 && unhealthy >= 1) {
        await this.d.events.record(
          machineRef(m),
          'Warning',
          'MachineDeletionRestricted',
          `Machine ${m.name} must be replaced (${why}) but ${unhealthy} Machine(s) of MachineSet ${m.machineSet} are not ready yet; waiting`,
        );
        return { requeueAfterMs: this.d.retryMs };
      }
    }
    await this.d.events.record(
      machineRef(m),
      'Normal',
      'MachineReplaced',
      `deleting Machine ${m.name}: ${why}`,
    );
    this.d.logger.info({ machine: machineKey(m), why }, 'replacing a Machine');
    this.deleted.add(m.uid);
    await this.d.custom.deleteNamespacedCustomObject({
      group: MACHINE_GROUP,
      version: MACHINE_VERSION,
      namespace: m.namespace,
      plural: 'machines',
      name: m.name,
    });
    return undefined;
  }

  private async replicas(m: WindowsMachine): Promise<number> {
    const ms = (await this.d.custom.getNamespacedCustomObject({
      group: MACHINE_GROUP,
      version: MACHINE_VERSION,
      namespace: m.namespace,
      plural: 'machinesets',
      name: m.machineSet ?? '',
    })) as { spec?: { replicas?: number } };
    return ms.spec?.replicas ?? 1;
  }

  private healthy(machineSet: string, namespace: string): number {
    const nodes = this.d.windowsNodes();
    const all = this.d.machines().map(windowsMachine);
    for (const uid of this.deleted) if (!all.some((x) => x.uid === uid)) this.deleted.delete(uid);
    return all
      .filter((x) => x.machineSet === machineSet && x.namespace === namespace && !x.deleting)
      .filter((x) => !this.deleted.has(x.uid))
      .filter((x) => x.phase === 'Running' || x.nodeRef !== undefined)
      .filter((x) => {
        const node = nodes.find((n) => nodeMachine(n) === machineKey(x) || n.metadata?.name === x.nodeRef);
        return node?.metadata?.annotations?.[Annotations.version] !== undefined;
      }).length;
  }
}
