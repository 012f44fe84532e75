import type { V1Node } from '@kubernetes/client-node';
import type { WindowsInstance } from '../../desired/windows-instances.js';
import type { HostKeyStore, PinnedHostKey } from '../../host/host-key-store.js';
import type { HostState } from '../../host/protocol/index.js';
import type { WindowsHost } from '../../host/windows-host.js';
import { instanceRef } from '../../identity/instance-ref.js';
import { Annotations, Labels } from '../../identity/node-metadata.js';
import { kubeletNodeName } from '../../identity/node-name.js';
import { encryptUsername } from '../../identity/username-crypto.js';
import { enterPhase } from '../../lifecycle/instance-status.js';
import { nodeEventRef, type JoinDeps } from '../../lifecycle/join-deps.js';
import { patchNodeMetadata } from '../../lifecycle/node-ops.js';
import { settleTakeover } from '../../lifecycle/takeover-settle.js';
import {
  NODE_TAKEN_OVER,
  NODE_TAKEOVER_REFUSED,
  takeoverProblem,
  type TakeoverOutcome,
} from '../../lifecycle/takeover-checks.js';
import type { ByohView } from './byoh-view.js';
import type { RecordedNode } from './node-record-guard.js';

export { NODE_TAKEN_OVER, NODE_TAKEOVER_REFUSED, type TakeoverOutcome };

const NONE: TakeoverOutcome = { kind: 'none' };
const LOOK = { directories: [], files: [], services: ['kubelet'], envVars: [], firewallRules: [] };

/** A node joined by an operator (its version annotation) and that no record of this operator names. */
function joinedElsewhere(node: V1Node, instance: WindowsInstance): boolean {
  const a = node.metadata?.annotations ?? {};
  const owner = a[Annotations.instanceAddress];
  return (
    node.metadata?.labels?.[Labels.byoh] === 'true' &&
    (a[Annotations.version] ?? '') !== '' &&
    (owner === undefined || owner === instance.address)
  );
}

/**
 * The Node an entry's reconcile acts on: the one its record names and agrees with; with no record, one
 * `take` adopted (undefined: none, the join decides); 'refused' when a candidate did not check out.
 */
export async function entryNode(
  found: RecordedNode,
  take: () => Promise<TakeoverOutcome> | undefined,
): Promise<V1Node | undefined | 'refused'> {
  if (found.kind === 'agrees') return found.node;
  if (found.kind !== 'none') return undefined;
  const taken = await take();
  if (taken?.kind === 'refused') return 'refused';
  return taken?.kind === 'adopted' ? taken.node : undefined;
}

/** The operator version a Node carries (the one it was joined or last upgraded at). */
function joinedAt(node: V1Node): string {
  return node.metadata?.annotations?.[Annotations.version] ?? '';
}
/**
 * Takes over, in place, a BYOH node the Go WMCO joined (issue 29 item 2), trusting nothing the node can
 * write. Only a `windows-instances` entry leads to a candidate: the operator connects to the entry's
 * address (never the Node's), pins the host key at that first contact, and reads the host's computer
 * name; the candidate is the Node of that name, and only when no record of this operator names it. It is
 * adopted when the host runs a kubelet, the Go WMCO's `username` annotation decrypts (OpenPGP, with the
 * operator's private key) to the entry's user, and the `ssh-host-key` annotation, where present, is the
 * key just pinned (compared, never trusted). Anything else is reported (event, status) and nothing is
 * done. Adopted: the Node gets this operator's annotations, then its record (ADR 0035). A host that
 * already matches this operator's desired state gets this version's annotations and nothing restarted;
 * one that does not keeps its version, so the normal upgrade follows under the disruption budget.
 */
export class ByohTakeover {
  constructor(
    private readonly deps: JoinDeps,
    private readonly hostKeys: HostKeyStore,
    private readonly view: ByohView,
  ) {}

  async consider(
    instance: WindowsInstance,
    privateKeyPem: string,
    signal: AbortSignal,
  ): Promise<TakeoverOutcome> {
    if (!this.view.windowsNodes().some((n) => this.unrecorded(n) && joinedElsewhere(n, instance)))
      return NONE;
    const { address, ipv4Address: ipv4, username } = instance;
    const host = this.deps.openHost({ address, ipv4, username, privateKeyPem, signal });
    try {
      const state = await host.observe(LOOK);
      const named = kubeletNodeName(state.hostname);
      const node = named.ok ? this.view.node(named.name) : undefined;
      if (node === undefined || !this.unrecorded(node) || !joinedElsewhere(node, instance)) return NONE;
      const pin = await this.hostKeys.get(host.address);
      const why = await this.problem(node, instance, { state, pin, privateKeyPem });
      if (why !== undefined) {
        await this.refuse(node, instance, why);
        return { kind: 'refused', why };
      }
      return await this.adopt(node, instance, { host, pin, privateKeyPem });
    } finally {
      await host.close();
    }
  }

  private unrecorded(node: V1Node): boolean {
    return this.deps.records.forNode(node.metadata?.name ?? '') === undefined;
  }

  private async problem(
    node: V1Node,
    instance: WindowsInstance,
    seen: { state: HostState; pin: PinnedHostKey | undefined; privateKeyPem: string },
  ): Promise<string | undefined> {
    const a = node.metadata?.annotations ?? {};
    const username = a[Annotations.username];
    return takeoverProblem({
      state: seen.state,
      pin: seen.pin,
      recordedKey: a[Annotations.sshHostKey],
      ...(username === undefined ? {} : { username }),
      usernameRequired: true,
      expectedUser: instance.username,
      privateKeyPem: seen.privateKeyPem,
      at: 'the entry’s address',
      userOf: `entry ${instance.address}`,
    });
  }

  private async adopt(
    node: V1Node,
    instance: WindowsInstance,
    c: { host: WindowsHost; pin: PinnedHostKey | undefined; privateKeyPem: string },
  ): Promise<TakeoverOutcome> {
    const name = node.metadata?.name ?? '';
    const pin = c.pin;
    // The Node first (a retry finds it again by its owner annotation), then the record that proves it.
    const annotated = await patchNodeMetadata(this.deps.core, name, {
      annotations: {
        [Annotations.instanceAddress]: instance.address,
        [Annotations.username]: encryptUsername(instance.username, c.privateKeyPem),
        ...(pin ? { [Annotations.sshHostKey]: pin.base64, [Annotations.sshHostKeyType]: pin.type } : {}),
      },
    });
    const ref = instanceRef(instance);
    await this.deps.records.put({
      source: 'windows-instances',
      instance: instance.address,
      address: instance.ipv4Address,
      nodeName: name,
      username: instance.username,
      appliedTags: [],
      recordedAt: (this.deps.now?.() ?? new Date()).toISOString(),
      migrated: true,
      ...(ref.dnsName === undefined ? {} : { dnsName: ref.dnsName }),
      ...(pin ? { hostKey: pin } : {}),
    });
    this.deps.names.own({ ...ref, nodeName: name });
    const settled = await settleTakeover(this.deps, c.host, annotated, 'host');
    // The version it was joined at: read before settleTakeover set this operator's.
    await this.taken(settled.node, instance, settled.how, joinedAt(node));
    return { kind: 'adopted', node: settled.node, matches: settled.matches };
  }

  private async taken(node: V1Node, instance: WindowsInstance, how: string, from: string): Promise<void> {
    const name = node.metadata?.name ?? '';
    const message = `Took over node ${name} (joined by another operator${from === this.deps.version ? '' : `, version ${from}`}) from instance ${instance.address}: ${how}`;
    this.deps.logger.info({ node: name, instance: instance.address }, 'took over a node');
    await this.deps.events.record(nodeEventRef(node), 'Normal', NODE_TAKEN_OVER, message);
    await this.status(instance, name, 'Ready', undefined);
  }

  private async refuse(node: V1Node, instance: WindowsInstance, why: string): Promise<void> {
    const name = node.metadata?.name ?? '';
    const message = `Node ${name} looks joined by another operator but is not taken over from instance ${instance.address}: ${why}; nothing was changed on the host or the Node`;
    this.deps.logger.warn({ node: name, instance: instance.address, why }, 'node not taken over');
    await this.deps.events.record(nodeEventRef(node), 'Warning', NODE_TAKEOVER_REFUSED, message);
    await this.status(instance, name, 'Failed', message);
  }

  private async status(
    instance: WindowsInstance,
    node: string,
    phase: 'Ready' | 'Failed',
    lastError: string | undefined,
  ): Promise<void> {
    const key = instance.ipv4Address;
    const current = this.deps.status.get(key);
    if (current?.phase === phase && current.lastError === lastError) return;
    const extra = { source: 'byoh' as const, node, ...(lastError === undefined ? {} : { lastError }) };
    await this.deps.status.set(enterPhase(current, { address: key, phase, now: new Date(), extra }));
  }
}
