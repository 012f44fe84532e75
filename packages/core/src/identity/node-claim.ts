import { type CoreV1Api, type V1Node } from '@kubernetes/client-node';
import { Annotations } from './node-metadata.js';
import { NodeNotOwnedError } from './node-ownership.js';
import type { InstanceRef, Registrations } from './registrations.js';
import { mergePatchNode } from '../kube/client/node-merge-patch.js';

/** What a claim reads: the API, the operator's registrations, and what its record of the instance names. */
export interface ClaimFacts {
  readonly core: CoreV1Api;
  readonly registrations: Registrations;
  /** The node name the operator's record of this instance (at this address) names, if any (ADR 0035). */
  readonly recordedNode?: string | undefined;
}

/** The client CSR this operator approved for `nodeName` on the instance's behalf, if any. */
function approvedFor(registrations: Registrations, ref: InstanceRef, nodeName: string): string | undefined {
  const r = registrations.forAddress(ref.address);
  const current = r?.nodeName === nodeName ? r.approvedClientCsr : undefined;
  return current ?? registrations.approvedClientCsr(nodeName, ref.address);
}

/**
 * Makes sure the Node a join waited for is the instance's before anything touches it (issue 10 item 2),
 * from operator-side data only: the operator's record of the instance names it; or it registered through
 * the client CSR this operator approved for the instance's registration (now, or before a restart, as the
 * approval's message records), and it is then annotated with its instance. A Node's own instance-address
 * annotation proves nothing (a kubelet writes its own Node, issue 27): anything else throws
 * NodeNotOwnedError and the Node is left alone.
 */
export async function claimNode(facts: ClaimFacts, ref: InstanceRef, node: V1Node): Promise<void> {
  const nodeName = node.metadata?.name ?? '';
  const { core, registrations } = facts;
  if (facts.recordedNode !== nodeName) {
    if (approvedFor(registrations, ref, nodeName) === undefined)
      throw new NodeNotOwnedError(nodeName, 'configure', undefined, ref.address);
    await mergePatchNode(core, nodeName, {
      metadata: { annotations: { [Annotations.instanceAddress]: ref.address } },
    });
  }
  registrations.own({ ...ref, nodeName });
}
