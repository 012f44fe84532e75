import type { V1Node } from '@kubernetes/client-node';
import { DriftChecks, type DriftSettings } from '../../lifecycle/drift-checks.js';
import type { HostTarget } from '../../lifecycle/join-deps.js';
import type { ReconcileOutcome } from '../../kube/controller.js';
import type { Logger } from '../../kube/logger.js';
import type { NodeUpgrades } from '../../lifecycle/node-upgrades.js';
import { machineKey, machineSourceInstance } from './machine-instance.js';
import type { WindowsMachine } from './machine-object.js';

export interface MachineLifecycleDeps {
  readonly sshUser: string;
  readonly logger: Logger;
  /** The upgrade and reboot flow of the operator's one NodeMaintenance (shared with BYOH). */
  readonly upgrades: NodeUpgrades;
  /** Drift repair of Ready, current Machine nodes every `intervalMs` (0 or absent: off), scheduled as BYOH's. */
  readonly drift?: DriftSettings;
  readonly now: () => number;
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
 * BYOH node, under the same budget; a current node gets the same drift checks, scheduled the same way
 * (`DriftChecks`: none right after a join or upgrade, at once after a cluster configuration change, one
 * exec per check with no SFTP look for the module).
 */
export class MachineLifecycle {
  private readonly drift: DriftChecks;

  constructor(private readonly d: MachineLifecycleDeps) {
    this.drift = new DriftChecks(d.drift, d.now, d.logger);
  }

  /** The upgrade/reboot flow; a finished pass counts as a look at the host. */
  async maintain(w: MachineNodeWork): Promise<ReconcileOutcome | undefined> {
    const began = this.d.now();
    const target = { ...this.target(w.machine), privateKeyPem: w.privateKeyPem };
    const instance = machineSourceInstance(w.machine);
    const outcome = await this.d.upgrades.run(w.node, target, w.signal, instance);
    return this.drift.converged(machineKey(w.machine), began, outcome);
  }

  /** A join of `m` that began at `began` ended: no drift check before the interval, then periodic ones. */
  joined(m: WindowsMachine, began: number): ReconcileOutcome | undefined {
    return this.drift.converged(machineKey(m), began, undefined);
  }

  forget(key: string): void {
    this.drift.forget(key);
  }

  /** The drift check (WICD's periodic resync) when it is due, and when the next one is. */
  checkDrift(w: MachineNodeWork): Promise<ReconcileOutcome | undefined> {
    return this.drift.check({
      entry: machineKey(w.machine),
      target: this.target(w.machine),
      instance: machineSourceInstance(w.machine),
      node: w.node,
      privateKeyPem: w.privateKeyPem,
      signal: w.signal,
      stillWanted: w.stillWanted,
    });
  }

  private target(m: WindowsMachine): Pick<HostTarget, 'address' | 'ipv4' | 'username'> {
    const ip = m.ipv4 ?? '';
    return { address: ip, ipv4: ip, username: this.d.sshUser };
  }
}
