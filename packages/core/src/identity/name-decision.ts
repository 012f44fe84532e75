import type { V1Node } from '@kubernetes/client-node';
import { kubeletNodeName } from './node-name.js';
import { nodeOwner } from './node-ownership.js';
import {
  NodeNameTakenError,
  type InstanceRef,
  type Registration,
  type Registrations,
} from './registrations.js';

/** The host's answer, as its observe reported it. */
export interface ReportedName {
  /** The platform's `HOSTNAME_OVERRIDE` pre-script value, when the platform has one ('' = none). */
  readonly hostnameOverride?: string | undefined;
  /** The computer name. */
  readonly hostname: string;
  /** The host already has the kubelet service (an earlier attempt of this join started it). */
  readonly kubeletPresent?: boolean;
}

export interface NameDecisionFacts {
  readonly registrations: Registrations;
  /** The Node of that name, of any OS, read from the API server (not a cache of Windows nodes). */
  node(name: string): Promise<V1Node | undefined>;
  /** The client CSR this operator approved for that node and instance, if it still exists. */
  approvedClientCsr(nodeName: string, address: string): string | undefined;
  /**
   * The node name the operator's own record of this instance names (ADR 0035), when the record is for
   * this instance's address; the only proof that an existing Node is this instance's.
   */
  readonly recordedNode?: string | undefined;
  /** The instance whose operator record names `nodeName`, if any (for the refusal's message). */
  recordedFor?(nodeName: string): string | undefined;
}

/** The host may not register under the name it reported; the message says why. */
export class NodeNameError extends Error {
  constructor(address: string, why: string) {
    super(`instance ${address} cannot join: ${why}`);
    this.name = 'NodeNameError';
  }
}

/**
 * When a Node of that name exists: undefined if the operator's record of this instance names it; the CSR
 * this operator approved for it on this instance's behalf (a join resumed after a restart, before the
 * record was written); else throws. The Node's own instance-address annotation proves nothing: a kubelet
 * writes its own Node, so a Node created before the first join may carry any owner (issue 27).
 */
async function existingNodeClaim(
  address: string,
  name: string,
  facts: NameDecisionFacts,
): Promise<string | undefined> {
  const node = await facts.node(name);
  if (node === undefined || facts.recordedNode === name) return undefined;
  const recovered = facts.approvedClientCsr(name, address);
  if (recovered !== undefined) return recovered;
  const other = facts.recordedFor?.(name);
  if (other !== undefined)
    throw new NodeNameError(
      address,
      `the host reports node name ${name}, taken by an existing Node of instance ${other}`,
    );
  const owner = nodeOwner(node);
  const claims =
    owner === undefined
      ? ''
      : ` (its own annotation names instance ${owner}, which the operator does not trust)`;
  throw new NodeNameError(
    address,
    `the host reports node name ${name}, taken by an existing Node the operator has no record of joining${claims}; ` +
      'delete that Node (and find out which credentials created it) for this host to join',
  );
}

/**
 * Decides the node name of a joining instance and registers it (issue 10 item 1): the name the kubelet
 * will really register (override or computer name, trimmed and lower-cased), valid, not the name of any
 * existing Node unless the operator's record of this instance names it (or its kubelet got its certificate
 * from this operator for this instance, when a join resumes), and not held by another instance.
 */
export async function decideNodeName(
  ref: InstanceRef,
  reported: ReportedName,
  facts: NameDecisionFacts,
): Promise<Registration> {
  const override = reported.hostnameOverride ?? '';
  const named = kubeletNodeName(override.trim() !== '' ? override : reported.hostname);
  if (!named.ok) throw new NodeNameError(ref.address, named.reason);
  const name = named.name;
  const recovered = await existingNodeClaim(ref.address, name, facts);
  try {
    return facts.registrations.register(ref, name, {
      approvedClientCsr: recovered,
      resumed: reported.kubeletPresent === true,
    });
  } catch (err) {
    if (err instanceof NodeNameTakenError) throw new NodeNameError(ref.address, err.message);
    throw err;
  }
}
