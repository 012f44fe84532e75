import type { V1Node } from '@kubernetes/client-node';
import { publicKeyHash } from '../desired/authorized-key.js';
import type { Ipv4Resolver, WindowsInstance } from '../desired/windows-instances.js';
import { instanceRef } from '../identity/instance-ref.js';
import { nodeOwner, ownedBy } from '../identity/node-ownership.js';
import { publicKeyOf } from '../join/public-key.js';
import type { Reconciler, ReconcileOutcome } from '../kube/controller.js';
import { Annotations, Labels, PRIVATE_KEY_SECRET } from '../join/node-metadata.js';
import { DriftChecks, type DriftSettings } from './drift-checks.js';
import { ENTRY_PREFIX, NODE_PREFIX, type ByohView } from './byoh-view.js';
import { EntryAdmission, type EntryAddressing } from './entry-admission.js';
import { enterPhase } from './instance-status.js';
import { instancesConfigMapRef, type JoinDeps } from './join-deps.js';
import type { JoinFlow } from './join-flow.js';
import type { EntryPins } from './entry-pins.js';
import type { KeyRotation } from './key-rotation.js';
import { needsMaintenance, type NodeUpgrades } from '../lifecycle/node-upgrades.js';
import { isNodeReady, nodeInternalIp } from './node-ops.js';
import type { RemoveFlow, RemoveOptions } from './remove-flow.js';
import { pruneInstanceStatuses } from './status-pruner.js';
import { privateKeyProblem } from './private-key-problem.js';

export interface InstanceFlows {
  readonly join: JoinFlow;
  readonly remove: RemoveFlow;
  readonly removeOptions: RemoveOptions;
  readonly rotation: KeyRotation;
  /** A joined node of another version goes through the upgrade flow (lifecycle/), never the join. */
  readonly upgrades?: NodeUpgrades;
  /** Periodic drift repair of up-to-date nodes; absent or `intervalMs` 0 turns it off. */
  readonly drift?: DriftSettings;
  /** Forgets the host-key pins of removed entries (absent: pins are kept). */
  readonly pins?: EntryPins;
}

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

  constructor(
    private readonly deps: JoinDeps,
    private readonly view: ByohView,
    private readonly flows: InstanceFlows,
    addressing: EntryAddressing,
  ) {
    this.admission = new EntryAdmission(view, addressing);
    this.resolve = addressing.resolve;
    this.drift = new DriftChecks(flows.drift, () => this.now(), deps.logger);
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
    if (key.startsWith(NODE_PREFIX))
      return this.reconcileNode(key.slice(NODE_PREFIX.length), privateKey, signal);
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
      await pruneInstanceStatuses(this.deps.status, {
        instances: this.view.instances(),
        nodes: this.view.windowsNodes(),
        resolve: this.resolve,
      });
      await this.flows.pins?.entryGone(entry);
      return undefined;
    }
    const result = await this.admission.admit(entry, value);
    if (!result.ok) {
      const why = result.error;
      await this.reportOnce(
        `entry/${entry}`,
        'Warning',
        'InstanceSetupFailure',
        `windows-instances entry "${entry}": ${why}`,
      );
      if ('keepStatus' in result) return undefined;
      await this.deps.status.set(
        enterPhase(this.deps.status.get(entry), {
          address: entry,
          phase: 'Failed',
          now: new Date(),
          extra: { lastError: why },
        }),
      );
      return undefined;
    }
    this.reported.delete(`entry/${entry}`);
    const hash = publicKeyHash(publicKeyOf(privateKey));
    const began = this.now();
    const stale = this.staleNode(result.instance);
    if (stale)
      return this.drift.converged(
        entry,
        began,
        await this.upgrade(stale, result.instance, privateKey, signal),
      );
    const ready = this.upToDate(result.instance, hash);
    if (ready) return this.checkDrift(entry, { instance: result.instance, node: ready }, privateKey, signal);
    const joined = this.joinedNode(result.instance);
    if (joined) return this.rotateKey(joined, result.instance, privateKey, hash);
    await this.flows.join.join({
      instance: result.instance,
      privateKeyPem: privateKey,
      publicKeyHash: hash,
      signal,
    });
    // A node that has just joined needs no drift check before the interval passed: the events of its own
    // writes (the version annotation) find it recent, and the periodic checks start from here.
    return this.drift.converged(entry, began, undefined);
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
        extra: { lastError: message },
      }),
    );
    return undefined;
  }

  private now(): number {
    return (this.deps.now?.() ?? new Date()).getTime();
  }

  /** The Node this instance joined: same address, and owned by it (never one that merely shares the IP). */
  private ownNode(instance: WindowsInstance): V1Node | undefined {
    return this.view
      .windowsNodes()
      .find((n) => nodeInternalIp(n) === instance.ipv4Address && ownedBy(n, instance.address));
  }

  /** The instance's Node when it needs the upgrade flow (another version, or left mid-upgrade). */
  private staleNode(instance: WindowsInstance): V1Node | undefined {
    const node = this.flows.upgrades ? this.ownNode(instance) : undefined;
    return node && needsMaintenance(node, this.deps.version) ? node : undefined;
  }

  private upgrade(
    node: V1Node,
    instance: WindowsInstance,
    privateKeyPem: string,
    signal: AbortSignal,
  ): Promise<ReconcileOutcome | undefined> {
    const { address, ipv4Address: ipv4, username } = instance;
    const target = { address, ipv4, username, privateKeyPem };
    return this.flows.upgrades?.run(node, target, signal) ?? Promise.resolve(undefined);
  }

  /** A Ready node of this version whose only difference is the key: re-key it without a re-join. */
  private joinedNode(instance: WindowsInstance): V1Node | undefined {
    const node = this.ownNode(instance);
    const a = node?.metadata?.annotations ?? {};
    return node && a[Annotations.version] === this.deps.version && isNodeReady(node) ? node : undefined;
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
      await this.reportOnce(
        `key/${instance.address}`,
        'Warning',
        'PrivateKeyNotAccepted',
        `instance ${instance.address} (node ${name}) does not accept the new private key yet: add its public key to ` +
          `C:\\ProgramData\\ssh\\administrators_authorized_keys on the host; the operator checks again every ${Math.round(retryMs / 1000)}s`,
      );
      return { requeueAfterMs: retryMs };
    }
    this.reported.delete(`key/${instance.address}`);
    await this.deps.events.record(
      instancesConfigMapRef(this.deps.namespace),
      'Normal',
      'PrivateKeyRotated',
      `node ${name} (${instance.address}) now uses the new private key`,
    );
    return undefined;
  }

  /** The instance's Node when it is Ready and joined by this version with this key, else undefined. */
  private upToDate(instance: WindowsInstance, hash: string): V1Node | undefined {
    const node = this.ownNode(instance);
    if (node === undefined || !this.isCurrent(node, hash)) return undefined;
    // After a restart, this is how the operator learns again which nodes it owns (for serving CSRs).
    if (node.metadata?.name) this.deps.names.own({ ...instanceRef(instance), nodeName: node.metadata.name });
    return node;
  }

  private isCurrent(node: V1Node, hash: string): boolean {
    const a = node.metadata?.annotations ?? {};
    return (
      a[Annotations.version] === this.deps.version && a[Annotations.pubKeyHash] === hash && isNodeReady(node)
    );
  }

  private checkDrift(
    entry: string,
    found: { instance: WindowsInstance; node: V1Node },
    privateKeyPem: string,
    signal: AbortSignal,
  ): Promise<ReconcileOutcome | undefined> {
    const stillWanted = (): boolean =>
      this.view.instances()?.[entry] !== undefined && this.view.privateKey() === privateKeyPem;
    return this.drift.check({ entry, ...found, privateKeyPem, signal, stillWanted });
  }

  private async reconcileNode(
    name: string,
    privateKey: string,
    signal: AbortSignal,
  ): Promise<ReconcileOutcome | undefined> {
    const node = this.view.node(name);
    if (!node || node.metadata?.labels?.[Labels.byoh] !== 'true') return undefined;
    // Only a Node this operator joined is ever drained and deleted (a Linux node someone labelled is not).
    if (nodeOwner(node) === undefined || this.hasEntry(node)) return undefined;
    await this.flows.remove.remove(node, privateKey, { ...this.flows.removeOptions, signal });
    await this.flows.pins?.nodeRemoved(node);
    return undefined;
  }

  private hasEntry(node: V1Node): boolean {
    const entries = Object.keys(this.view.instances() ?? {});
    const ip = nodeInternalIp(node);
    const joinedAs = node.metadata?.annotations?.[Annotations.instanceAddress];
    return entries.some((e) => e === ip || e === joinedAs);
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
    await this.deps.events.record(instancesConfigMapRef(this.deps.namespace), type, reason, message);
  }
}
