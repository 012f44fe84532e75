import type { V1Node } from '@kubernetes/client-node';
import type { InstanceStatus } from './instance-status.js';
import type { HostTarget } from './join-deps.js';
import { NodeNotOwnedError, nodeOwner, ownedBy } from '../identity/node-ownership.js';
import { Annotations } from '../identity/node-metadata.js';

/**
 * Which source a node in the lifecycle comes from, as the shared flows (upgrade, reboot, drift repair)
 * need it: whether the node is still that source's, and where its progress is recorded. Sources say
 * only this much; everything after it is the same code for a BYOH host and a Machine.
 */
export interface MaintenanceSubject {
  /** Who the node must belong to, for messages (`10.0.0.5`, `Machine openshift-machine-api/win-1`). */
  readonly owner: string;
  /** Whether the Node still belongs to this source's instance. */
  owns(node: V1Node): boolean;
  /** Key in `windows-instances-status`. */
  readonly statusKey: string;
  /** Fields recorded with every status of this subject (source, Machine name). */
  readonly statusExtra?: Partial<InstanceStatus>;
}

/** A BYOH host: the Node's instance-address annotation names its `windows-instances` key. */
export function byohSubject(target: Pick<HostTarget, 'address' | 'ipv4'>): MaintenanceSubject {
  return {
    owner: target.address,
    owns: (node) => ownedBy(node, target.address),
    statusKey: target.ipv4,
  };
}

/** Throws NodeNotOwnedError unless `node` belongs to the subject (never touch another's node). */
export function assertSubjectOwns(subject: MaintenanceSubject, node: V1Node, action: string): void {
  if (subject.owns(node)) return;
  const other = nodeOwner(node) ?? node.metadata?.annotations?.[Annotations.machine];
  throw new NodeNotOwnedError(node.metadata?.name ?? '', action, other, subject.owner);
}
