/** One entry of a Node's `.status.addresses`. */
export interface NodeAddress {
  /** `InternalIP`, `ExternalIP`, `InternalDNS`, `ExternalDNS` or `Hostname`. */
  readonly type: string;
  readonly address: string;
}

/** The part of a Node that the builders look at: its name and addresses. */
export interface NodeRef {
  readonly name: string;
  readonly addresses: readonly NodeAddress[];
}

/** The first node that lists any of `candidates` among its addresses (exact match), or undefined. */
export function findNodeByAddress(
  nodes: readonly NodeRef[],
  candidates: readonly string[],
): NodeRef | undefined {
  return nodes.find((n) => n.addresses.some((a) => candidates.includes(a.address)));
}
