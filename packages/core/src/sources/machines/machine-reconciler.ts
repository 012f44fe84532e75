import type { CoreV1Api, CustomObjectsApi, V1Node } from '@kubernetes/client-node';
import { publicKeyHash } from '../../desired/authorized-key.js';
import type { JoinFlow } from '../../byoh/join-flow.js';
import { MACHINE_STATUS_PREFIX, type InstanceStatusStore } from '../../byoh/instance-status.js';
import type { ReconcileOutcome, Reconciler } from '../../kube/controller.js';
import type { EventRecorder } from '../../kube/event-recorder.js';
import { errorMessage, type Logger } from '../../kube/logger.js';
import { publicKeyOf } from '../../join/public-key.js';
import type { HostRename } from '../../provider/capabilities/host-rename.js';
import { machineKey, nodeMachine } from './machine-join-identity.js';
import { machineJoinIdentity } from './machine-join-identity.js';
import {
  deleteMachineObject,
  machineRef,
  notConfigurable,
  windowsMachine,
  type MachineResource,
  type WindowsMachine,
} from './machine-object.js';
import type { MachineLifecycle } from './machine-lifecycle.js';
import type { MachinePins } from './machine-pins.js';
import type { MachineReplacements } from './machine-replacements.js';
import { machineSetNameProblem } from './machine-set-names.js';
import { machineNodeState, type MachineNodeState } from './machine-plan.js';

/** What the Machine reconciler reads from its informers. */
export interface MachineView {
  machine(key: string): MachineResource | undefined;
  machines(): readonly MachineResource[];
  windowsNodes(): readonly V1Node[];
  privateKey(): string | undefined;
}

export interface MachineReconcilerDeps {
  readonly core: CoreV1Api;
  readonly custom: CustomObjectsApi;
  readonly join: JoinFlow;
  readonly events: EventRecorder;
  readonly logger: Logger;
  readonly version: string;
  /** SSH user of Machines (MachineAccess: `capi` on Azure, `Administrator` elsewhere). */
  readonly sshUser: string;
  readonly hostRename: HostRename | undefined;
  /** Failed join attempts after which the Machine is deleted so its MachineSet replaces it. */
  readonly retryBudget: number;
  /** Delay before the next attempt after a failure. */
  readonly retryMs: number;
  readonly replacements: MachineReplacements;
  readonly status: InstanceStatusStore;
  /** Upgrades, reboots and drift repair of joined Machine nodes: the lifecycle BYOH nodes go through. */
  readonly lifecycle: MachineLifecycle;
  /** Remembers each Machine's address and pin, for MachinePins to forget on deletion. */
  readonly pins: MachinePins;
}

/** The Node that belongs to a Machine: annotated with it, or named by its nodeRef and at its address. */
export function nodeOfMachine(nodes: readonly V1Node[], m: WindowsMachine): V1Node | undefined {
  return (
    nodes.find((n) => nodeMachine(n) === machineKey(m)) ??
    nodes.find((n) => n.metadata?.name === m.nodeRef && nodeMachine(n) === undefined)
  );
}

/**
 * One Windows Machine: once Provisioned with an IPv4 InternalIP (and not ignored), joins it through the
 * shared join flow with the platform's Machine user, renaming the host to the Machine name where the
 * platform needs it; a Machine that fails `retryBudget` times is deleted (with an event saying why) so
 * its MachineSet replaces it; a joined Machine whose node carries another key hash is replaced through
 * `replacements` (under the disruption budget); a joined node of another version, with a reboot request or
 * left mid-way goes through the shared lifecycle, and a current, Ready one gets the periodic drift check.
 */
export class MachineReconciler implements Reconciler {
  readonly name = 'machines';
  private readonly failures = new Map<string, number>();
  /** Machines whose invalid name was reported already (by uid). */
  private readonly reportedNames = new Set<string>();
  /**
   * Machines this reconciler deleted (key → uid): until the informer's cache shows the deletion, a
   * reconcile would still see them wanted and start another join to a VM on its way out.
   */
  private readonly deleted = new Map<string, string>();

  constructor(
    private readonly d: MachineReconcilerDeps,
    private readonly view: MachineView,
  ) {}

  async reconcile(key: string, signal: AbortSignal): Promise<ReconcileOutcome | undefined> {
    const res = this.view.machine(key);
    if (!res) return this.forget(key);
    const m = windowsMachine(res);
    await this.d.pins.seen(key, m);
    if (this.deleted.get(key) === m.uid) return undefined;
    const privateKey = this.view.privateKey();
    if (notConfigurable(m) !== undefined || privateKey === undefined) return undefined;
    const hash = publicKeyHash(publicKeyOf(privateKey));
    const state = this.nodeState(m, hash);
    if (state === 'other-key')
      return this.d.replacements.replace(m, 'its node was configured with another private key');
    const node = nodeOfMachine(this.view.windowsNodes(), m);
    if (node && state !== 'not-joined') {
      const stillWanted = this.stillWanted(key, privateKey);
      const work = { machine: m, node, privateKeyPem: privateKey, signal, stillWanted };
      const next = this.d.lifecycle.next(work, state === 'current');
      if (next !== 'join') return next;
    }
    const hostname = await this.hostname(m);
    if (hostname === false) return undefined;
    return this.join(m, { privateKeyPem: privateKey, hash, hostname }, signal);
  }

  /** Whether the Machine's node is configured: with this version and key, with another key, or not. */
  private nodeState(m: WindowsMachine, hash: string): MachineNodeState {
    return machineNodeState(nodeOfMachine(this.view.windowsNodes(), m), hash, this.d.version);
  }

  /** False once the Machine is gone or being deleted, or the private key changed. */
  private stillWanted(key: string, privateKey: string): () => boolean {
    return () => {
      const res = this.view.machine(key);
      return res !== undefined && !windowsMachine(res).deleting && this.view.privateKey() === privateKey;
    };
  }

  /** The Machine is gone (machine-api removed its VM and Node): so is its status. */
  private async forget(key: string): Promise<undefined> {
    this.failures.delete(key);
    this.deleted.delete(key);
    await this.d.status.remove(`${MACHINE_STATUS_PREFIX}${key.split('/')[1] ?? ''}`);
    return undefined;
  }

  /**
   * The computer name the host must have (HostRename), undefined when the platform keeps the name, or
   * false when the Machine name cannot be one: the Machine is left alone. A MachineSet whose every
   * Machine name is too long got its event from the MachineSet name check; any other Machine gets one.
   */
  private async hostname(m: WindowsMachine): Promise<string | undefined | false> {
    const rename = this.d.hostRename;
    try {
      return rename?.hostnameFor(m.name);
    } catch (err) {
      if (this.reportedNames.has(m.uid)) return false;
      this.reportedNames.add(m.uid);
      const bySet = m.machineSet !== undefined && rename && machineSetNameProblem(rename, m.machineSet);
      if (bySet) {
        this.d.logger.info({ machine: machineKey(m) }, 'Machine name too long; reported on its MachineSet');
        return false;
      }
      await this.d.events.record(
        machineRef(m),
        'Warning',
        'InvalidMachineName',
        `Machine ${m.name} cannot be configured: ${errorMessage(err)}`,
      );
      return false;
    }
  }

  private async join(
    m: WindowsMachine,
    k: { privateKeyPem: string; hash: string; hostname: string | undefined },
    signal: AbortSignal,
  ): Promise<ReconcileOutcome | undefined> {
    const key = machineKey(m);
    try {
      const ip = m.ipv4 ?? '';
      await this.d.join.join({
        instance: { address: ip, ipv4Address: ip, username: this.d.sshUser },
        privateKeyPem: k.privateKeyPem,
        publicKeyHash: k.hash,
        signal,
        identity: machineJoinIdentity(this.d.core, m, k.hostname),
      });
      this.failures.delete(key);
      return undefined;
    } catch (err) {
      if (signal.aborted) return undefined;
      const n = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, n);
      if (n < this.d.retryBudget) return { requeueAfterMs: this.d.retryMs };
      this.failures.delete(key);
      await this.deleteMachine(m, `${errorMessage(err)} (${n} failed attempts)`);
      return undefined;
    }
  }

  private async deleteMachine(m: WindowsMachine, why: string): Promise<void> {
    await this.d.events.record(
      machineRef(m),
      'Warning',
      'MachineSetupFailure',
      `deleting Machine ${m.name} so that its MachineSet replaces it: it could not be configured: ${why}`,
    );
    this.d.logger.warn({ machine: machineKey(m), why }, 'deleting a Machine that could not be configured');
    await deleteMachineObject(this.d.custom, m);
    this.deleted.set(machineKey(m), m.uid);
  }
}
