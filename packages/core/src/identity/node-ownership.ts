import type { V1Node } from '@kubernetes/client-node';
import { Annotations } from './node-metadata.js';

/**
 * The instance that owns a Node: the `windows-instances` key the operator wrote into the Node's
 * instance-address annotation when the Node first registered through a registration this operator
 * approved (ADR 0008). A Node without it (a Linux node, a node that existed before) is not the
 * operator's to touch.
 */
export function nodeOwner(node: V1Node | undefined): string | undefined {
  const owner = node?.metadata?.annotations?.[Annotations.instanceAddress];
  return owner === undefined || owner === '' ? undefined : owner;
}

/**
 * Whether the operator joined this Node from either source: a `windows-instances` entry (the
 * instance-address annotation) or a Machine (the machine annotation, ADR 0017).
 */
export function joinedByOperator(node: V1Node | undefined): boolean {
  const a = node?.metadata?.annotations ?? {};
  return nodeOwner(node) !== undefined || (a[Annotations.machine] ?? '') !== '';
}

export function ownedBy(node: V1Node | undefined, address: string): boolean {
  return nodeOwner(node) === address;
}

/** Refused: the Node is not this instance's. The message names the node, the action and the owner. */
export class NodeNotOwnedError extends Error {
  constructor(nodeName: string, action: string, owner: string | undefined, address?: string) {
    const whose =
      owner === undefined ? 'it was not joined by this operator' : `it belongs to instance ${owner}`;
    super(
      `will not ${action} node ${nodeName}${address === undefined ? '' : ` for instance ${address}`}: ${whose}`,
    );
    this.name = 'NodeNotOwnedError';
  }
}

/** Throws NodeNotOwnedError unless `node` belongs to `address` (or, with no address, to any instance). */
export function assertOwned(node: V1Node, action: string, address?: string): void {
  const owner = nodeOwner(node);
  const ok = address === undefined ? owner !== undefined : owner === address;
  if (!ok) throw new NodeNotOwnedError(node.metadata?.name ?? '', action, owner, address);
}
