import type { V1Node } from '@kubernetes/client-node';
import type { DriftOutcome, DriftRepair } from '../../lifecycle/drift-repair.js';
import { MACHINE_STATUS_PREFIX } from '../../lifecycle/instance-status.js';
import { MAINTAIN_CONNECT_DEADLINE_MS, type HostTarget } from '../../lifecycle/join-deps.js';
import { isNodeReady } from '../../lifecycle/node-ops.js';
import { nodeOwner } from '../../identity/node-ownership.js';
import type { ReconcileOutcome } from '../../kube/controller.js';
import { errorMessage, type Logger } from '../../kube/logger.js';
import type { MaintenanceSubject } from '../../lifecycle/maintenance-subject.js';
import { needsMaintenance, type NodeUpgrades } from '../../lifecycle/node-upgrades.js';
import { machineKey, nodeMachine } from './machine-join-identity.js';
import type { WindowsMachine } from './machine-object.js';

/** A Machine as the subject of the shared lifecycle: its Node carries the machine annotation, no instance. */
export function machineSubject(m: WindowsMachine): MaintenanceSubject {
  return {
    owner: `Machine ${machineKey(m)}`,
    owns: (node) => nodeMachine(node) === machineKey(m) && nodeOwner(node) === undefined,
    statusKey: `${MACHINE_STATUS_PREFIX}${m.name}`,
    statusExtra: { source: 'machine', machine: m.name },
  };
}

export interface MachineLifecycleDeps {
  readonly version: string;
  readonly sshUser: string;
  readonly logger: Logger;
  /** The upgrade and reboot flow of the operator's one NodeMaintenance (shared with BYOH). */
  readonly upgrades: NodeUpgrades;
  /** Drift repair of Ready, current Machine nodes every `intervalMs` (0 or absent: off). */
  readonly drift?: {
    readonly repair: DriftRepair;
    readonly intervalMs: number;
    readonly observed?: (outcome: DriftOutcome | { result: 'error'; error: string }) => void;
  };
}

export interface MachineNodeWork {
  readonly machine: WindowsMachine;
  readonly node: V1Node;
  readonly privateKeyPem: string;
  readonly signal: AbortSignal;
  /** Asked before drift is repaired: false once the Machine is going or the key changed. */
  readonly stillWanted: () => boolean;
}

/**
 * What the Machine source hands to the one node lifecycle (ARCHITECTURE §3): a joined Machine's node of
 * another version, with a reboot request, or left mid-way goes through the same upgrade/reboot flow as a
 * BYOH node, under the same budget; a current node gets the same periodic drift repair.
 */
export class MachineLifecycle {
  constructor(private readonly d: MachineLifecycleDeps) {}

  /**
   * What a joined Machine node needs now: the upgrade/reboot flow (another version, a reboot request, or
   * left mid-way), a drift check (current and Ready), nothing (current, not Ready), or `'join'` (another
   * version and not Ready: the join converges it, as for BYOH).
   */
  next(w: MachineNodeWork, current: boolean): Promise<ReconcileOutcome | undefined> | 'join' {
    if (needsMaintenance(w.node, this.d.version)) return this.maintain(w);
    if (!current) return 'join';
    return isNodeReady(w.node) ? this.checkDrift(w) : Promise.resolve(undefined);
  }

  maintain(w: MachineNodeWork): Promise<ReconcileOutcome | undefined> {
    return this.d.upgrades.run(w.node, this.target(w, false), w.signal, machineSubject(w.machine));
  }

  /** One drift check (WICD's periodic resync), then the next one in `intervalMs`. */
  async checkDrift(w: MachineNodeWork): Promise<ReconcileOutcome | undefined> {
    const drift = this.d.drift;
    if (drift === undefined || drift.intervalMs <= 0) return undefined;
    const subject = machineSubject(w.machine);
    try {
      const outcome = await drift.repair.check({
        node: w.node,
        target: this.target(w, true),
        signal: w.signal,
        stillWanted: w.stillWanted,
        owns: (n) => subject.owns(n),
      });
      drift.observed?.(outcome);
    } catch (err) {
      if (w.signal.aborted) throw err;
      drift.observed?.({ result: 'error', error: errorMessage(err) });
      this.d.logger.warn({ machine: machineKey(w.machine), err: errorMessage(err) }, 'drift check failed');
    }
    return { requeueAfterMs: drift.intervalMs };
  }

  private target(w: MachineNodeWork, quick: boolean): HostTarget {
    const ip = w.machine.ipv4 ?? '';
    return {
      address: ip,
      ipv4: ip,
      username: this.d.sshUser,
      privateKeyPem: w.privateKeyPem,
      ...(quick ? { connectDeadlineMs: MAINTAIN_CONNECT_DEADLINE_MS } : {}),
    };
  }
}
