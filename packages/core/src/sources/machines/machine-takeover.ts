import type { V1Node } from '@kubernetes/client-node';
import type { HostKeyStore, PinnedHostKey } from '../../host/host-key-store.js';
import type { HostState } from '../../host/protocol/index.js';
import type { WindowsHost } from '../../host/windows-host.js';
import { Annotations, Labels } from '../../identity/node-metadata.js';
import { kubeletNodeName } from '../../identity/node-name.js';
import { MACHINE_STATUS_PREFIX, enterPhase } from '../../lifecycle/instance-status.js';
import { nodeEventRef, type JoinDeps } from '../../lifecycle/join-deps.js';
import { patchNodeMetadata } from '../../lifecycle/node-ops.js';
import { settleTakeover } from '../../lifecycle/takeover-settle.js';
import {
  NODE_TAKEN_OVER,
  NODE_TAKEOVER_REFUSED,
  takeoverProblem,
  type TakeoverOutcome,
} from '../../lifecycle/takeover-checks.js';
import { machineKey, nodeMachine } from './machine-instance.js';
import { notConfigurable, type WindowsMachine } from './machine-object.js';

const LOOK = { directories: [], files: [], services: ['kubelet'], envVars: [], firewallRules: [] };

/**
 * A Node the machine controller linked to this Machine (its `status.nodeRef`, cluster-side data), that an
 * operator joined (its version annotation), with no owner of this operator's kind and no record naming it.
 */
export function machineTakeoverCandidate(
  m: WindowsMachine,
  node: V1Node | undefined,
  recorded: (nodeName: string) => boolean,
): node is V1Node {
  if (node === undefined || notConfigurable(m) !== undefined) return false;
  const name = node.metadata?.name ?? '';
  return m.nodeRef === name && joinedByAnother(node) && !recorded(name);
}

/** The VM's computer name, as the kubelet turns it into a node name (vSphere, Nutanix, Azure), is `name`. */
function namedAs(name: string, state: HostState): boolean {
  const named = kubeletNodeName(state.hostname);
  return named.ok && named.name === name;
}

/** Joined by an operator (a version annotation), owned by neither a Machine nor a BYOH entry of this operator. */
function joinedByAnother(node: V1Node): boolean {
  const a = node.metadata?.annotations ?? {};
  const version = a[Annotations.version] ?? '';
  const byoh = node.metadata?.labels?.[Labels.byoh] === 'true';
  return (
    version !== '' && !byoh && nodeMachine(node) === undefined && a[Annotations.instanceAddress] === undefined
  );
}

/** The operator version a Node carries (the one it was joined or last upgraded at). */
function joinedAt(node: V1Node): string {
  return node.metadata?.annotations?.[Annotations.version] ?? '';
}
/**
 * Takes over, in place, a Machine node the Go WMCO joined (issue 29 item 2), trusting nothing the Node
 * can write: the candidate is the Node machine-api linked to the Machine; the operator connects to the
 * Machine's address (its `status.addresses`, from the cloud or hypervisor), never the Node's, with the
 * platform's Machine user, and pins the host key at that first contact. It is adopted when the VM runs a
 * kubelet, its computer name is the Node's name (on AWS and GCP, where the kubelet takes its name from the
 * cloud's metadata: one of the Machine's InternalDNS addresses, machine-api's data, is), the Node's `ssh-host-key`, where present, is the key
 * just pinned, and its `username`, where present (upstream writes none on Machine nodes), decrypts to the
 * Machine user. Anything else is reported (event, status) and nothing is changed. Adopted: the Node gets
 * this operator's Machine annotation and the pinned key, then its record; a VM that already matches gets
 * this version with nothing restarted; another keeps its version, so the normal upgrade follows under the
 * disruption budget.
 */
export class MachineTakeover {
  constructor(
    private readonly deps: JoinDeps,
    private readonly hostKeys: HostKeyStore,
    private readonly sshUser: string,
    /** The kubelet's node name comes from the cloud's metadata (AWS, GCP), not the computer name. */
    private readonly nodeNameFromCloud = false,
  ) {}

  async consider(
    m: WindowsMachine,
    node: V1Node,
    k: { privateKeyPem: string; signal: AbortSignal },
  ): Promise<TakeoverOutcome> {
    const address = m.ipv4 ?? '';
    const target = { address, ipv4: address, username: this.sshUser, ...k };
    const host = this.deps.openHost(target);
    try {
      const state = await host.observe(LOOK);
      const pin = await this.hostKeys.get(host.address);
      const why = await this.problem(node, state, { pin, privateKeyPem: k.privateKeyPem, machine: m });
      if (why !== undefined) {
        await this.refuse(node, m, why);
        return { kind: 'refused', why };
      }
      return await this.adopt(node, m, { host, pin });
    } finally {
      await host.close();
    }
  }

  private async problem(
    node: V1Node,
    state: HostState,
    seen: { pin: PinnedHostKey | undefined; privateKeyPem: string; machine: WindowsMachine },
  ): Promise<string | undefined> {
    const name = node.metadata?.name ?? '';
    const misnamed = this.nameProblem(name, state, seen.machine);
    if (misnamed !== undefined) return misnamed;
    const a = node.metadata?.annotations ?? {};
    return takeoverProblem({
      state,
      pin: seen.pin,
      recordedKey: a[Annotations.sshHostKey],
      ...(a[Annotations.username] === undefined ? {} : { username: a[Annotations.username] }),
      expectedUser: this.sshUser,
      privateKeyPem: seen.privateKeyPem,
      at: 'the Machine’s address',
      userOf: 'the Machine user',
    });
  }

  /** Why the node's name is not the VM's (computer name, or on AWS/GCP the Machine's InternalDNS), or undefined. */
  private nameProblem(name: string, state: HostState, m: WindowsMachine): string | undefined {
    const dns = m.internalDns ?? [];
    if (this.nodeNameFromCloud)
      return dns.includes(name)
        ? undefined
        : `no InternalDNS name of the Machine (${dns.join(', ')}) is the node name ${name}`;
    return namedAs(name, state)
      ? undefined
      : `the VM’s computer name (${state.hostname}) is not the node name ${name}`;
  }

  private async adopt(
    node: V1Node,
    m: WindowsMachine,
    c: { host: WindowsHost; pin: PinnedHostKey | undefined },
  ): Promise<TakeoverOutcome> {
    const name = node.metadata?.name ?? '';
    const pin = c.pin;
    // The Node first (a retry finds it by its machine annotation, and the record migration agrees), then the record.
    const annotated = await patchNodeMetadata(this.deps.core, name, {
      annotations: {
        [Annotations.machine]: machineKey(m),
        ...(pin ? { [Annotations.sshHostKey]: pin.base64, [Annotations.sshHostKeyType]: pin.type } : {}),
      },
    });
    await this.deps.records.put({
      source: 'machine',
      instance: machineKey(m),
      address: m.ipv4 ?? '',
      nodeName: name,
      username: this.sshUser,
      appliedTags: [],
      recordedAt: (this.deps.now?.() ?? new Date()).toISOString(),
      migrated: true,
      ...(pin ? { hostKey: pin } : {}),
    });
    const settled = await settleTakeover(this.deps, c.host, annotated, 'VM');
    // The version it was joined at: read before settleTakeover set this operator's.
    await this.taken(settled.node, m, settled.how, joinedAt(node));
    return { kind: 'adopted', node: settled.node, matches: settled.matches };
  }

  private async taken(node: V1Node, m: WindowsMachine, how: string, from: string): Promise<void> {
    const name = node.metadata?.name ?? '';
    const by = from === this.deps.version ? '' : `, version ${from}`;
    const message = `Took over node ${name} (joined by another operator${by}) from Machine ${machineKey(m)}: ${how}`;
    this.deps.logger.info({ node: name, machine: machineKey(m) }, 'took over a Machine node');
    await this.deps.events.record(nodeEventRef(node), 'Normal', NODE_TAKEN_OVER, message);
    await this.status(m, name, undefined);
  }

  private async refuse(node: V1Node, m: WindowsMachine, why: string): Promise<void> {
    const name = node.metadata?.name ?? '';
    const message = `Node ${name} looks joined by another operator but is not taken over from Machine ${machineKey(m)}: ${why}; nothing was changed on the VM or the Node`;
    this.deps.logger.warn({ node: name, machine: machineKey(m), why }, 'Machine node not taken over');
    await this.deps.events.record(nodeEventRef(node), 'Warning', NODE_TAKEOVER_REFUSED, message);
    await this.status(m, name, message);
  }

  private async status(m: WindowsMachine, node: string, lastError: string | undefined): Promise<void> {
    const key = `${MACHINE_STATUS_PREFIX}${m.name}`;
    const phase = lastError === undefined ? 'Ready' : 'Failed';
    const current = this.deps.status.get(key);
    if (current?.phase === phase && current.lastError === lastError) return;
    const extra = { source: 'machine' as const, machine: m.name, node, ...(lastError ? { lastError } : {}) };
    await this.deps.status.set(enterPhase(current, { address: key, phase, now: new Date(), extra }));
  }
}
