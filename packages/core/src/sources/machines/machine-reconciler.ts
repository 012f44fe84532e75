import type { CoreV1Api, CustomObjectsApi, V1Node } from '@kubernetes/client-node';
import { whileWanted } from './while-wanted.js';
import { publicKeyHash } from '../../desired/authorized-key.js';
import type { JoinFlow } from '../../lifecycle/join-flow.js';
import { noteNextRetry } from '../../lifecycle/instance-conditions.js';
import { MACHINE_STATUS_PREFIX, type InstanceStatusStore } from '../../lifecycle/instance-status.js';
import { statusReady } from '../../lifecycle/joined-status.js';
import type { ReconcileOutcome, Reconciler } from '../../kube/controller.js';
import type { EventRecorder } from '../../kube/event-recorder.js';
import { errorMessage, type Logger } from '../../kube/logger.js';
import { publicKeyOf } from '../../desired/public-key.js';
import type { HostRename } from '../../provider/capabilities/host-rename.js';
import { machineKey, nodeMachine } from './machine-instance.js';
import { machineJoiningInstance } from './machine-instance.js';
import {
  deleteMachineObject,
  machineRef,
  windowsMachine,
  type MachineResource,
  type WindowsMachine,
} from './machine-object.js';
import type { MachineLifecycle, MachineNodeWork } from './machine-lifecycle.js';
import type { MachinePins } from './machine-pins.js';
import type { MachineReplacements } from './machine-replacements.js';
import { machineSetNameProblem } from './machine-set-names.js';
import { machineNode, type MachineRecordDeps } from './machine-record.js';
import type { NodeRecords } from '../../identity/node-record-store.js';
import { RecordMismatchReporter } from '../../lifecycle/record-mismatch-reporter.js';
import { planMachine, type MachineAction, type MachinePlan } from './machine-plan.js';
import { machineTakeoverCandidate, type MachineTakeover } from './machine-takeover.js';

/** The actions the shared maintenance flow (upgrade, reboot, resume) carries out. */
const MAINTENANCE: ReadonlySet<MachineAction> = new Set<MachineAction>(['upgrade', 'reboot', 'resume']);

/** One reconcile's inputs once the private key is known. */
interface Work {
  readonly machine: WindowsMachine;
  readonly node: V1Node | undefined;
  readonly privateKeyPem: string;
  readonly hash: string;
  readonly signal: AbortSignal;
}

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
  /** The operator's node records: which Node is the Machine's (ADR 0035). */
  readonly records: NodeRecords;
  /** Milliseconds now (when a join began, for the drift schedule). */
  readonly now: () => number;
  /** Remembers each Machine's address and pin, for MachinePins to forget on deletion. */
  readonly pins: MachinePins;
  /** Adopts a Machine node the Go WMCO joined, when it checks out (machine-takeover.ts). */
  readonly takeover?: MachineTakeover;
}

/** The Node that belongs to a Machine: annotated with it, or named by its nodeRef and at its address. */
export function nodeOfMachine(nodes: readonly V1Node[], m: WindowsMachine): V1Node | undefined {
  return (
    nodes.find((n) => nodeMachine(n) === machineKey(m)) ??
    nodes.find((n) => n.metadata?.name === m.nodeRef && nodeMachine(n) === undefined)
  );
}

/**
 * One Windows Machine, acting on `planMachine`'s decision (the one `wmco plan` prints): once Provisioned
 * with an IPv4 InternalIP (and not ignored), joins it through the
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

  private readonly recordDeps: MachineRecordDeps;

  constructor(
    private readonly d: MachineReconcilerDeps,
    private readonly view: MachineView,
  ) {
    const reporter = new RecordMismatchReporter(d);
    this.recordDeps = { records: d.records, reporter, events: d.events, sshUser: d.sshUser };
  }

  async reconcile(key: string, signal: AbortSignal): Promise<ReconcileOutcome | undefined> {
    const res = this.view.machine(key);
    if (!res) return this.forget(key);
    const m = windowsMachine(res);
    await this.d.pins.seen(key, m);
    if (this.deleted.get(key) === m.uid) return undefined;
    const privateKey = this.view.privateKey();
    const hash = privateKey === undefined ? undefined : publicKeyHash(publicKeyOf(privateKey));
    const node = await this.machineNode(m, privateKey, signal);
    if (node === false) return undefined;
    const plan = planMachine({
      machine: m,
      node,
      publicKeyHash: hash,
      version: this.d.version,
      machineApi: true,
      hostname: (name) => this.d.hostRename?.hostnameFor(name),
      sshUser: this.d.sshUser,
    });
    if (privateKey === undefined || hash === undefined) return undefined;
    return this.act(plan, { machine: m, node, privateKeyPem: privateKey, hash, signal });
  }

  /**
   * The Machine's node is the one its record names, only while it agrees (ADR 0035); false when a Node
   * contradicts the record or claims the Machine without one (reported; nothing is done).
   */
  private async machineNode(
    m: WindowsMachine,
    privateKeyPem: string | undefined,
    signal: AbortSignal,
  ): Promise<V1Node | undefined | false> {
    const nodes = this.view.windowsNodes();
    const candidate = nodeOfMachine(nodes, m);
    const takeover = this.d.takeover;
    if (takeover && privateKeyPem !== undefined && this.takeoverCandidate(m, candidate)) {
      const taken = await takeover.consider(m, candidate, { privateKeyPem, signal });
      return taken.kind === 'adopted' ? taken.node : false;
    }
    const found = await machineNode(this.recordDeps, nodes, m, { candidate, privateKeyPem });
    return found.kind === 'node' ? found.node : false;
  }

  /**
   * With no record of the Machine, the Node machine-api linked to it (nodeRef) that another operator
   * joined and no record names: a takeover candidate (issue 29 item 2), never a join or a migration.
   */
  private takeoverCandidate(m: WindowsMachine, node: V1Node | undefined): node is V1Node {
    if (this.d.records.get('machine', machineKey(m)) !== undefined) return false;
    return machineTakeoverCandidate(m, node, (name) => this.d.records.forNode(name) !== undefined);
  }

  /** Does what `planMachine` decided (the decision `wmco plan` prints). */
  private act(plan: MachinePlan, w: Work): Promise<ReconcileOutcome | undefined> {
    const { machine: m, node } = w;
    if (plan.action === 'replace') return this.d.replacements.replace(m, plan.reason);
    if (plan.action === 'join') return this.join(m, { ...w, hostname: plan.hostname }, w.signal);
    if (plan.nameError !== undefined) return this.reportName(m, plan.nameError);
    if (node === undefined) return Promise.resolve(undefined);
    const work = { ...w, node, stillWanted: this.stillWanted(machineKey(m), w.privateKeyPem) };
    if (plan.action === 'check-drift') return this.readyThenCheck(m, work);
    if (MAINTENANCE.has(plan.action)) return this.d.lifecycle.maintain(work);
    return Promise.resolve(undefined);
  }

  /**
   * A current, Ready node's status is Ready (a lost write is put right: joined-status.ts), then its drift
   * check; a node that is not Ready keeps the status it had.
   */
  private async readyThenCheck(
    m: WindowsMachine,
    work: MachineNodeWork,
  ): Promise<ReconcileOutcome | undefined> {
    const extra = { source: 'machine' as const, machine: m.name };
    await statusReady(this.d.status, { key: `${MACHINE_STATUS_PREFIX}${m.name}`, node: work.node, extra });
    return this.d.lifecycle.checkDrift(work);
  }

  /** False once the Machine is gone or being deleted, or the private key changed. */
  private stillWanted(key: string, privateKey: string): () => boolean {
    return () => {
      const res = this.view.machine(key);
      return res !== undefined && !windowsMachine(res).deleting && this.view.privateKey() === privateKey;
    };
  }

  /** The Machine is gone: so are its status and its record (also a record a join wrote after deleted-machine.ts). */
  private async forget(key: string): Promise<undefined> {
    this.failures.delete(key);
    this.deleted.delete(key);
    this.d.lifecycle.forget(key);
    if (this.d.records.get('machine', key) !== undefined) await this.d.records.remove('machine', key);
    await this.d.status.remove(`${MACHINE_STATUS_PREFIX}${key.split('/')[1] ?? ''}`);
    return undefined;
  }

  /**
   * HostRename refused the Machine's name: the Machine is left alone. A MachineSet whose every Machine
   * name is too long got its event from the MachineSet name check; any other Machine gets one, once.
   */
  private async reportName(m: WindowsMachine, why: string): Promise<undefined> {
    const rename = this.d.hostRename;
    if (this.reportedNames.has(m.uid)) return undefined;
    this.reportedNames.add(m.uid);
    const bySet = m.machineSet !== undefined && rename && machineSetNameProblem(rename, m.machineSet);
    if (bySet) {
      this.d.logger.info({ machine: machineKey(m) }, 'Machine name too long; reported on its MachineSet');
      return undefined;
    }
    await this.d.events.record(
      machineRef(m),
      'Warning',
      'InvalidMachineName',
      `Machine ${m.name} cannot be configured: ${why}`,
    );
    return undefined;
  }

  private async join(
    m: WindowsMachine,
    k: { privateKeyPem: string; hash: string; hostname: string | undefined },
    signal: AbortSignal,
  ): Promise<ReconcileOutcome | undefined> {
    const key = machineKey(m);
    const began = this.d.now();
    const wanted = whileWanted(this.stillWanted(key, k.privateKeyPem), signal);
    try {
      const ip = m.ipv4 ?? '';
      await this.d.join.join({
        instance: { address: ip, ipv4Address: ip, username: this.d.sshUser },
        privateKeyPem: k.privateKeyPem,
        publicKeyHash: k.hash,
        signal: wanted.signal,
        identity: machineJoiningInstance(this.d.core, m, k.hostname),
      });
      this.failures.delete(key);
      return this.d.lifecycle.joined(m, began);
    } catch (err) {
      if (signal.aborted) return undefined;
      // Deleted (or re-keyed) meanwhile: the next reconcile forgets it (or joins it with the new key).
      if (wanted.unwanted()) return { requeueAfterMs: 10 };
      const n = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, n);
      if (n < this.d.retryBudget) return this.retryLater(m);
      this.failures.delete(key);
      await this.deleteMachine(m, `${errorMessage(err)} (${n} failed attempts)`);
      return undefined;
    } finally {
      wanted.dispose();
    }
  }

  /** Tries the Machine again after `retryMs`; its status says when (as a failed BYOH instance's does). */
  private async retryLater(m: WindowsMachine): Promise<ReconcileOutcome> {
    const at = new Date(this.d.now() + this.d.retryMs);
    await noteNextRetry(this.d.status, `${MACHINE_STATUS_PREFIX}${m.name}`, at);
    return { requeueAfterMs: this.d.retryMs };
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
