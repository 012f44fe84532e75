import type { V1Node } from '@kubernetes/client-node';
import { publicKeyHash } from '../../desired/authorized-key.js';
import type { Ipv4Resolver, WindowsInstance } from '../../desired/windows-instances.js';
import { instanceRef } from '../../identity/instance-ref.js';
import { publicKeyOf } from '../../desired/public-key.js';
import type { Reconciler, ReconcileOutcome } from '../../kube/controller.js';
import { PRIVATE_KEY_SECRET } from '../../identity/node-metadata.js';
import { DriftChecks } from '../../lifecycle/drift-checks.js';
import type { EntryWork, InstanceFlows } from './instance-flows.js';
import { byohJoiningInstance, byohSourceInstance } from './byoh-instance.js';
import { planByohInstance, type ByohPlan } from './byoh-plan.js';
import { ENTRY_PREFIX, NODE_PREFIX, type ByohView } from './byoh-view.js';
import { EntryAdmission, type EntryAddressing } from './entry-admission.js';
import { enterPhase } from '../../lifecycle/instance-status.js';
import { statusReady } from '../../lifecycle/joined-status.js';
import { instancesConfigMapRef, type JoinDeps } from '../../lifecycle/join-deps.js';
import { NodeRecordGuard } from './node-record-guard.js';
import { RecordMigration } from './record-migration.js';
import { RecordedRemovals } from './recorded-removals.js';
import { pruneInstanceStatuses } from './status-pruner.js';
import { entryNode } from './byoh-takeover.js';
import { privateKeyProblem } from '../../lifecycle/private-key-problem.js';
import { ByohAttention } from './byoh-attention.js';
import { byohSource, type ListedSource } from './listed-source.js';

/**
 * Reconciles one `windows-instances` entry (`entry:<key>`) or one BYOH node without an entry
 * (`node:<name>`). A bad entry gets its own event and leaves the others alone; a missing private key is
 * waited for with an event, not a crash.
 */
export class InstancesReconciler implements Reconciler {
  readonly name = 'windows-instances';
  private readonly reported = new Map<string, string>();
  private keyChecked: { readonly pem: string; readonly problem: string | undefined } | undefined;
  private readonly admission: EntryAdmission;
  private readonly resolve: Ipv4Resolver;
  private readonly drift: DriftChecks;
  private readonly guard: NodeRecordGuard;
  private readonly migration: RecordMigration;
  private readonly removals: RecordedRemovals;
  private readonly attention: ByohAttention;
  private readonly source: ListedSource;
  private readonly windowsNodes = (): readonly V1Node[] => this.view.windowsNodes();

  constructor(
    private readonly deps: JoinDeps,
    private readonly view: ByohView,
    private readonly flows: InstanceFlows,
    addressing: EntryAddressing,
  ) {
    this.source = view.source ?? byohSource();
    this.admission = new EntryAdmission(view, addressing, deps.records);
    this.resolve = addressing.resolve;
    this.drift = new DriftChecks(flows.drift, () => this.now(), deps.logger);
    this.guard = new NodeRecordGuard(deps, view);
    this.migration = new RecordMigration(deps, view, addressing.resolve);
    this.removals = new RecordedRemovals(view, this.guard, flows, deps.namespace);
    this.attention = new ByohAttention(deps);
  }

  /** A failed entry's status says when it is tried again. */
  retrying(key: string, delayMs: number): Promise<void> {
    return this.attention.retrying(key, delayMs);
  }

  async reconcile(key: string, signal: AbortSignal): Promise<ReconcileOutcome | undefined> {
    const privateKey = this.view.privateKey();
    if (privateKey === undefined) {
      await this.reportOnce(
        'private-key',
        'Warning',
        'PrivateKeyMissing',
        `waiting for Secret ${PRIVATE_KEY_SECRET} in ${this.deps.namespace} (key private-key.pem) before configuring any instance`,
      );
      return undefined;
    }
    const unusable = this.keyProblem(privateKey);
    if (unusable !== undefined) return this.keyUnusable(key, unusable);
    // Nodes joined before records existed get theirs first, where operator-side data agrees.
    if (this.source.builtIn) await this.migration.once(privateKey);
    if (key.startsWith(NODE_PREFIX))
      return this.removals.reconcile(key.slice(NODE_PREFIX.length), privateKey, signal);
    return this.reconcileEntry(key.slice(ENTRY_PREFIX.length), privateKey, signal);
  }

  private async reconcileEntry(
    entry: string,
    privateKey: string,
    signal: AbortSignal,
  ): Promise<ReconcileOutcome | undefined> {
    const value = this.view.instances()?.[entry];
    if (value === undefined) {
      // The entry is gone: so are its status (a BYOH Node of it keeps its status until removed) and what
      // was reported about it.
      this.reported.delete(`entry/${entry}`);
      this.drift.forget(entry);
      this.attention.forget(entry);
      await pruneInstanceStatuses(this.deps.status, {
        instances: this.view.instances(),
        nodes: this.view.windowsNodes(),
        resolve: this.resolve,
        source: this.source.id,
      });
      await this.flows.pins?.entryGone(entry);
      await this.leftNothing(entry);
      return undefined;
    }
    const result = await this.admission.admit(entry, value);
    if (!result.ok) {
      const why = result.error;
      const what = this.source.builtIn ? 'windows-instances entry' : `${this.source.id} host`;
      await this.reportOnce(
        `entry/${entry}`,
        'Warning',
        'InstanceSetupFailure',
        `${what} "${entry}": ${why}`,
      );
      if ('keepStatus' in result) return undefined;
      await this.deps.status.set(
        enterPhase(this.deps.status.get(entry), {
          address: entry,
          phase: 'Failed',
          now: new Date(),
          extra: { lastError: why, source: this.source.id },
        }),
      );
      return undefined;
    }
    this.reported.delete(`entry/${entry}`);
    this.attention.track(entry, result.instance);
    const hash = publicKeyHash(publicKeyOf(privateKey));
    // The instance's Node is the one its record names, and only while the Node agrees with the record.
    const found = this.guard.ofEntry(result.instance, { privateKeyPem: privateKey, publicKeyHash: hash });
    if (found.kind === 'contradicts') {
      await this.guard.report(found, 'configured, upgraded, re-keyed or repaired (no SSH connection)');
      return undefined;
    }
    // Else an entry's Node may be one the Go WMCO joined, adopted only when it checks out (byoh-takeover.ts).
    const node = await entryNode(found, () =>
      this.flows.takeover?.consider(result.instance, privateKey, signal),
    );
    if (node === 'refused') return undefined;
    const plan = planByohInstance(node, hash, this.deps.version);
    // A joined instance keeps the username it joined with; a changed one is reported as ignored.
    const instance =
      found.kind === 'agrees'
        ? await this.attention.joinedAs(entry, result.instance, found.record)
        : result.instance;
    const work = { entry, instance, privateKey, hash, signal, began: this.now() };
    return this.act(plan, node, work);
  }

  /** Does what `planByohInstance` decided (the decision `wmco plan` prints). */
  private async act(
    plan: ByohPlan,
    node: V1Node | undefined,
    w: EntryWork,
  ): Promise<ReconcileOutcome | undefined> {
    if (plan.action === 'join' || node === undefined) return this.join(w);
    if (plan.action === 'rotate-key') return this.rotateKey(node, w.instance, w.privateKey, w.hash);
    await this.attention.keyCurrent(w.instance);
    if (plan.action === 'check-drift') {
      await statusReady(this.deps.status, { key: w.entry, node, extra: { source: this.source.id } });
      return this.checkDrift(w.entry, this.owned(w.instance, node), w);
    }
    const outcome = await this.upgrade(node, w.instance, w.privateKey, w.signal);
    return this.drift.converged(w.entry, w.began, outcome);
  }

  private async join(w: EntryWork): Promise<ReconcileOutcome | undefined> {
    await this.flows.join.join({
      instance: w.instance,
      privateKeyPem: w.privateKey,
      publicKeyHash: w.hash,
      signal: w.signal,
      identity: byohJoiningInstance(this.deps, w.instance, this.source, this.windowsNodes),
    });
    // A node that has just joined needs no drift check before the interval passed: the events of its own
    // writes (the version annotation) find it recent, and the periodic checks start from here.
    return this.drift.converged(w.entry, w.began, undefined);
  }

  /** Why the key cannot be used (a public key, a passphrase, garbage), or undefined; one parse per key. */
  private keyProblem(pem: string): string | undefined {
    if (this.keyChecked?.pem !== pem) this.keyChecked = { pem, problem: privateKeyProblem(pem) };
    return this.keyChecked.problem;
  }

  /**
   * Nothing can be joined or removed with an unusable key: said once as an event (with the fix) and, for
   * every entry not yet joined, in its status, so `wmco status` lists it and why it waits. Joined nodes
   * keep running and keep their status.
   */
  private async keyUnusable(key: string, problem: string): Promise<undefined> {
    const message = `Secret ${PRIVATE_KEY_SECRET} in ${this.deps.namespace} cannot be used: ${problem}. Put an unencrypted private key (RSA, ECDSA or Ed25519, PEM or OpenSSH format) in its private-key.pem; until then no instance is configured or removed`;
    await this.reportOnce('private-key', 'Warning', 'PrivateKeyInvalid', message);
    if (!key.startsWith(ENTRY_PREFIX)) return undefined;
    const entry = key.slice(ENTRY_PREFIX.length);
    const current = this.deps.status.get(entry);
    if (this.view.instances()?.[entry] === undefined || current?.phase === 'Ready') return undefined;
    if (current?.phase === 'Pending' && current.lastError === message) return undefined;
    await this.deps.status.set(
      enterPhase(current, {
        address: entry,
        phase: 'Pending',
        now: new Date(),
        extra: { lastError: message, source: this.source.id },
      }),
    );
    return undefined;
  }

  private now(): number {
    return (this.deps.now?.() ?? new Date()).getTime();
  }

  private upgrade(
    node: V1Node,
    instance: WindowsInstance,
    privateKeyPem: string,
    signal: AbortSignal,
  ): Promise<ReconcileOutcome | undefined> {
    const { address, ipv4Address: ipv4, username } = instance;
    const target = { address, ipv4, username, privateKeyPem };
    const source = byohSourceInstance(this.deps.namespace, instance, this.source);
    return this.flows.upgrades.run(node, target, signal, source);
  }

  private async rotateKey(
    node: V1Node,
    instance: WindowsInstance,
    key: string,
    hash: string,
  ): Promise<ReconcileOutcome | undefined> {
    const retryMs = this.deps.timings.keyRetryMs ?? 60_000;
    const outcome = await this.flows.rotation.rotate(node, instance, key, hash);
    const name = node.metadata?.name ?? '';
    if (outcome === 'not-accepted') {
      await this.attention.keyPending(instance, node, retryMs);
      return { requeueAfterMs: retryMs };
    }
    await this.attention.keyCurrent(instance);
    await this.deps.events.record(
      this.source.eventTarget(this.deps.namespace, instance.address),
      'Normal',
      'PrivateKeyRotated',
      `node ${name} (${instance.address}) now uses the new private key`,
    );
    return undefined;
  }

  /** After a restart, this is how the operator learns again which nodes it owns (for serving CSRs). */
  private owned(instance: WindowsInstance, node: V1Node): { instance: WindowsInstance; node: V1Node } {
    if (node.metadata?.name) this.deps.names.own({ ...instanceRef(instance), nodeName: node.metadata.name });
    return { instance, node };
  }

  private checkDrift(
    entry: string,
    found: { instance: WindowsInstance; node: V1Node },
    w: EntryWork,
  ): Promise<ReconcileOutcome | undefined> {
    const { privateKey: privateKeyPem, signal } = w;
    const stillWanted = (): boolean =>
      this.view.instances()?.[entry] !== undefined && this.view.privateKey() === privateKeyPem;
    const { instance, node } = found;
    const target = { address: instance.address, ipv4: instance.ipv4Address, username: instance.username };
    const source = byohSourceInstance(this.deps.namespace, instance, this.source);
    return this.drift.check({ entry, target, instance: source, node, privateKeyPem, signal, stillWanted });
  }

  /**
   * A host that left an embedder's list with nothing of it left (never joined, or its record gone): the
   * list hears that its status is gone, even when no status was kept (InstanceList.leaving).
   */
  private async leftNothing(entry: string): Promise<void> {
    const list = this.source.list;
    if (!list?.report || this.deps.records.get(this.source.record, entry) !== undefined) return;
    if (this.deps.status.get(entry) !== undefined) return;
    await list.report(entry, undefined).catch((e: unknown) => {
      this.deps.logger.warn({ address: entry, err: String(e) }, 'cannot report a listed host gone');
    });
  }

  private async reportOnce(
    topic: string,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
  ): Promise<void> {
    if (this.reported.get(topic) === message) return;
    this.reported.set(topic, message);
    this.deps.logger.warn({ reason }, message);
    // An entry's own trouble goes on its object (an embedder's source may name one); the rest on windows-instances.
    const ns = this.deps.namespace;
    const entry = topic.startsWith('entry/') ? topic.slice('entry/'.length) : undefined;
    const target = entry === undefined ? instancesConfigMapRef(ns) : this.source.eventTarget(ns, entry);
    await this.deps.events.record(target, type, reason, message);
  }
}
