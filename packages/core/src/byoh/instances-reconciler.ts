import type { V1Node } from '@kubernetes/client-node';
import { publicKeyHash } from '../desired/authorized-key.js';
import {
  parseWindowsInstances,
  type Ipv4Resolver,
  type WindowsInstance,
} from '../desired/windows-instances.js';
import { publicKeyOf } from '../join/public-key.js';
import type { Reconciler, ReconcileOutcome } from '../kube/controller.js';
import { Annotations, Labels, PRIVATE_KEY_SECRET } from '../join/node-metadata.js';
import { ENTRY_PREFIX, NODE_PREFIX, type ByohView } from './byoh-view.js';
import { enterPhase } from './instance-status.js';
import { instancesConfigMapRef, type JoinDeps } from './join-deps.js';
import type { JoinFlow } from './join-flow.js';
import type { KeyRotation } from './key-rotation.js';
import { isNodeReady, nodeInternalIp } from './node-ops.js';
import type { RemoveFlow, RemoveOptions } from './remove-flow.js';

/**
 * Reconciles one `windows-instances` entry (`entry:<key>`) or one BYOH node without an entry
 * (`node:<name>`). A bad entry gets its own event and leaves the others alone; a missing private key is
 * waited for with an event, not a crash.
 */
export class InstancesReconciler implements Reconciler {
  readonly name = 'windows-instances';
  private readonly reported = new Map<string, string>();

  constructor(
    private readonly deps: JoinDeps,
    private readonly view: ByohView,
    private readonly flows: {
      join: JoinFlow;
      remove: RemoveFlow;
      removeOptions: RemoveOptions;
      rotation: KeyRotation;
    },
    private readonly resolver: Ipv4Resolver,
  ) {}

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
    if (value === undefined) return undefined;
    const [result] = await parseWindowsInstances(
      { [entry]: value },
      [...this.view.windowsNodes()].map(nodeRef),
      this.resolver,
    );
    if (!result?.ok) {
      const why = result?.error ?? 'unparseable entry';
      await this.reportOnce(
        `entry/${entry}`,
        'Warning',
        'InstanceSetupFailure',
        `windows-instances entry "${entry}": ${why}`,
      );
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
    if (this.upToDate(result.instance, hash)) return undefined;
    const joined = this.joinedNode(result.instance);
    if (joined) return this.rotateKey(joined, result.instance, privateKey, hash);
    await this.flows.join.join({
      instance: result.instance,
      privateKeyPem: privateKey,
      publicKeyHash: hash,
      signal,
    });
    return undefined;
  }

  /** A Ready node of this version whose only difference is the key: re-key it without a re-join. */
  private joinedNode(instance: WindowsInstance): V1Node | undefined {
    const node = this.view.windowsNodes().find((n) => nodeInternalIp(n) === instance.ipv4Address);
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

  private upToDate(instance: WindowsInstance, hash: string): boolean {
    const node = this.view.windowsNodes().find((n) => nodeInternalIp(n) === instance.ipv4Address);
    const a = node?.metadata?.annotations ?? {};
    const ok =
      node !== undefined &&
      a[Annotations.version] === this.deps.version &&
      a[Annotations.pubKeyHash] === hash &&
      isNodeReady(node);
    if (ok && node.metadata?.name) {
      this.deps.names.set({
        address: instance.address,
        ipv4: instance.ipv4Address,
        nodeName: node.metadata.name,
      });
    }
    return ok;
  }

  private async reconcileNode(
    name: string,
    privateKey: string,
    signal: AbortSignal,
  ): Promise<ReconcileOutcome | undefined> {
    const node = this.view.node(name);
    if (!node || node.metadata?.labels?.[Labels.byoh] !== 'true') return undefined;
    if (this.hasEntry(node)) return undefined;
    await this.flows.remove.remove(node, privateKey, { ...this.flows.removeOptions, signal });
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

function nodeRef(n: V1Node): { name: string; addresses: { type: string; address: string }[] } {
  return {
    name: n.metadata?.name ?? '',
    addresses: (n.status?.addresses ?? []).map((a) => ({ type: a.type, address: a.address })),
  };
}
