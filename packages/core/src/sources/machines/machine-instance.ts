import { type CoreV1Api, type V1Node } from '@kubernetes/client-node';
import { kubeletNodeName } from '../../identity/node-name.js';
import { NodeNotOwnedError, nodeOwner } from '../../identity/node-ownership.js';
import { Annotations } from '../../identity/node-metadata.js';
import type { JoiningInstance, SourceInstance } from '../../lifecycle/node-source.js';
import { MACHINE_STATUS_PREFIX } from '../../lifecycle/instance-status.js';
import { nodeInternalIp, readNode } from '../../lifecycle/node-ops.js';
import type { HostState } from '../../host/protocol/index.js';
import { machineRef, type WindowsMachine } from './machine-object.js';
import { mergePatchNode } from '../../kube/client/node-merge-patch.js';

/** `<namespace>/<name>`: how a Node records the Machine that owns it. */
export function machineKey(m: Pick<WindowsMachine, 'namespace' | 'name'>): string {
  return `${m.namespace}/${m.name}`;
}

/** The Machine that owns a Node (its machine annotation), if any. */
export function nodeMachine(node: V1Node | undefined): string | undefined {
  const v = node?.metadata?.annotations?.[Annotations.machine];
  return v === undefined || v === '' ? undefined : v;
}

/** Throws unless `node` may be this Machine's: no other owner, and the Machine's address is its InternalIP. */
function assertMachineMayOwn(node: V1Node, m: WindowsMachine): void {
  const name = node.metadata?.name ?? '';
  const other = nodeOwner(node) ?? nodeMachine(node);
  if (other !== undefined && other !== machineKey(m))
    throw new NodeNotOwnedError(name, 'configure', other, machineKey(m));
  if (nodeInternalIp(node) !== m.ipv4)
    throw new NodeNotOwnedError(
      name,
      'configure',
      `the host at ${nodeInternalIp(node) ?? 'no address'}`,
      machineKey(m),
    );
}

/**
 * A Machine as the shared flows see it (node-source.ts): its Node carries the machine annotation and no
 * BYOH instance's, its status is kept under `machine.<name>`, its events go on the Machine.
 */
export function machineSourceInstance(m: WindowsMachine): SourceInstance {
  return {
    owner: `Machine ${machineKey(m)}`,
    owns: (node) => nodeMachine(node) === machineKey(m) && nodeOwner(node) === undefined,
    status: { key: `${MACHINE_STATUS_PREFIX}${m.name}`, extra: { source: 'machine', machine: m.name } },
    eventTarget: machineRef(m),
  };
}

/**
 * A Node of the Machine's future name that exists before the Machine's host ever ran a kubelet was not
 * registered by that host (on vSphere and Nutanix the name is the Machine's, known in advance): someone
 * created it to be adopted. It is refused and left alone, unless it already is this Machine's.
 */
function assertNotSquatted(node: V1Node, m: WindowsMachine, host: HostState): void {
  if (nodeMachine(node) === machineKey(m)) return;
  if (host.services.some((svc) => svc.name.toLowerCase() === 'kubelet')) return;
  const name = node.metadata?.name ?? '';
  throw new Error(
    `Node ${name} already exists, but the host of Machine ${machineKey(m)} has never run a kubelet: ` +
      `someone else created it, so it is not adopted and is left alone (delete Node ${name} if it is stale)`,
  );
}

/**
 * A Machine's join: the kubelet registers the name its host reports (after HostRename on vSphere and
 * Nutanix), no registration is made with the operator's CSR approver (the cluster machine approver
 * approves Machine-backed CSRs), and the Node is claimed for the Machine only when it carries the
 * Machine's address and no other owner, and (when it existed before the join) was registered by the host.
 */
export function machineJoiningInstance(
  core: CoreV1Api,
  m: WindowsMachine,
  hostname: string | undefined,
): JoiningInstance {
  return {
    ...machineSourceInstance(m),
    ...(hostname === undefined ? {} : { hostname }),
    labels: {},
    annotations: { [Annotations.machine]: machineKey(m) },
    record: { source: 'machine', instance: machineKey(m) },
    async decideName(values, host): Promise<string> {
      const decided = kubeletNodeName(values['HOSTNAME_OVERRIDE'] ?? host.hostname);
      if (!decided.ok) throw new Error(decided.reason);
      const existing = await readNode(core, decided.name);
      if (existing) assertNotSquatted(existing, m, host);
      if (existing) assertMachineMayOwn(existing, m);
      return decided.name;
    },
    async claim(node): Promise<void> {
      assertMachineMayOwn(node, m);
      if (nodeMachine(node) === machineKey(m)) return;
      await mergePatchNode(core, node.metadata?.name ?? '', {
        metadata: { annotations: { [Annotations.machine]: machineKey(m) } },
      });
    },
    end: () => undefined,
  };
}
