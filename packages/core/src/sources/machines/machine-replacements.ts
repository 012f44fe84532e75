import type { CustomObjectsApi, V1Node } from '@kubernetes/client-node';
import { isNodeReady } from '../../lifecycle/node-ops.js';
import type { ReconcileOutcome } from '../../kube/controller.js';
import type { EventRecorder } from '../../kube/event-recorder.js';
import type { Logger } from '../../kube/logger.js';
import { Annotations } from '../../identity/node-metadata.js';
import type { DisruptionBudget } from '../../lifecycle/disruption-budget.js';
import { machineKey, nodeMachine } from './machine-instance.js';
import {
  MACHINE_GROUP,
  deleteMachineObject,
  MACHINE_VERSION,
  machineRef,
  windowsMachine,
  type MachineResource,
  type WindowsMachine,
} from './machine-object.js';

/**
 * Replaces a joined Machine (deleting it so its MachineSet creates a new one) when the disruption budget
 * allows it now.
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
  /** The operator's one disruption budget (lifecycle/), shared with upgrades and reboots of every source. */
  readonly budget: DisruptionBudget;
  /** How long to wait before asking again when a replacement is not allowed yet. */
  readonly retryMs: number;
  /** Runs before a Machine is deleted (the user data must carry the new key before a replacement boots). */
  readonly prepare?: () => Promise<unknown>;
}

/** A replacement this operator started: the Machine it deleted and the MachineSet that must recover. */
interface Pending {
  readonly uid: string;
  readonly machineSet: string | undefined;
  readonly namespace: string;
  /** The MachineSet's replicas when the replacement began (what "recovered" means). */
  readonly replicas: number;
  /** The name the old Machine counts under: its Node's, so it is not counted twice while that Node exists. */
  readonly name: string;
}

/**
 * Key-driven replacement under the one disruption budget (issue 14, ADR 0020): a Machine is deleted only
 * when the budget grants its node, and from then until its MachineSet has all its replicas back as Ready,
 * configured nodes, the Machines of that set that are not (the one being deleted, its replacement still
 * provisioning or joining, a replica not created yet) count as unavailable. With `maxUnavailable` 1 that
 * is upstream's `isAllowedDeletion` (one at a time), but the same slot is shared with BYOH and Machine
 * upgrades, reboots and drift repair restarts.
 */
export class BudgetedReplacements implements MachineReplacements {
  private readonly pending = new Map<string, Pending>();
  private readonly reported = new Map<string, string>();

  constructor(private readonly d: ReplacementDeps) {
    d.budget.countAlso(() => this.unavailable());
  }

  async replace(m: WindowsMachine, why: string): Promise<ReconcileOutcome | undefined> {
    if (this.pending.has(m.uid)) return undefined;
    // A Machine without a MachineSet comes back as nothing: its replacement ends once it is gone.
    const replicas = m.machineSet === undefined ? 0 : await this.replicas(m);
    const name = this.nodeName(m) ?? `machine/${m.name}`;
    const decision = this.d.budget.tryAcquire(name);
    if (!decision.granted) {
      await this.restricted(
        m,
        `Machine ${m.name} must be replaced (${why}) but the disruption budget allows at most ${decision.max} ` +
          `Windows node(s) unavailable at once, now ${decision.unavailable.join(', ')}; waiting`,
      );
      return { requeueAfterMs: this.d.retryMs };
    }
    // From here the pending entry holds the slot (synchronously, before any other worker can ask).
    this.pending.set(m.uid, { uid: m.uid, machineSet: m.machineSet, namespace: m.namespace, replicas, name });
    this.d.budget.release(name);
    this.reported.delete(m.uid);
    try {
      await this.d.prepare?.();
      await this.d.events.record(
        machineRef(m),
        'Normal',
        'MachineReplaced',
        `deleting Machine ${m.name}: ${why}`,
      );
      this.d.logger.info({ machine: machineKey(m), why }, 'replacing a Machine');
      await deleteMachineObject(this.d.custom, m);
    } catch (err) {
      this.pending.delete(m.uid);
      throw err;
    }
    return undefined;
  }

  /** What the replacements under way hold out of service (ends each one whose MachineSet recovered). */
  unavailable(): string[] {
    const all = this.d.machines().map(windowsMachine);
    const nodes = this.d.windowsNodes();
    const out: string[] = [];
    for (const p of [...this.pending.values()]) {
      const members = all.filter((x) => x.namespace === p.namespace && this.sameSet(x, p));
      const live = members.filter((x) => !x.deleting && x.uid !== p.uid);
      const unhealthy = members.filter((x) => x.uid === p.uid || !this.healthy(x, nodes));
      const old = members.some((x) => x.uid === p.uid);
      // While the old Machine exists it stands for its replacement: one replacement, one slot.
      const missing = Math.max(0, p.replicas - live.length - (old ? 1 : 0));
      if (!old && unhealthy.length === 0 && missing === 0) {
        this.pending.delete(p.uid);
        continue;
      }
      out.push(
        ...unhealthy.map((x) => (x.uid === p.uid ? p.name : (this.nodeName(x) ?? `machine/${x.name}`))),
      );
      for (let i = 0; i < missing; i++) out.push(`machineset/${p.machineSet ?? p.name}/replica-${i}`);
    }
    return out;
  }

  private sameSet(x: WindowsMachine, p: Pending): boolean {
    return p.machineSet === undefined ? x.uid === p.uid : x.machineSet === p.machineSet;
  }

  /** Upstream's healthy Machine: not being deleted, Running or with a node, that node configured and Ready. */
  private healthy(x: WindowsMachine, nodes: readonly V1Node[]): boolean {
    if (x.deleting || (x.phase !== 'Running' && x.nodeRef === undefined)) return false;
    const node = nodes.find((n) => nodeMachine(n) === machineKey(x) || n.metadata?.name === x.nodeRef);
    return node?.metadata?.annotations?.[Annotations.version] !== undefined && isNodeReady(node);
  }

  private nodeName(x: WindowsMachine): string | undefined {
    const node = this.d.windowsNodes().find((n) => nodeMachine(n) === machineKey(x));
    return node?.metadata?.name ?? x.nodeRef;
  }

  private async restricted(m: WindowsMachine, message: string): Promise<void> {
    if (this.reported.get(m.uid) === message) return;
    this.reported.set(m.uid, message);
    await this.d.events.record(machineRef(m), 'Warning', 'MachineDeletionRestricted', message);
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
}
