import { type CoreV1Api, type V1Node } from '@kubernetes/client-node';
import { Annotations } from './node-metadata.js';
import { NodeNotOwnedError, nodeOwner, ownedBy } from './node-ownership.js';
import type { InstanceRef, Registrations } from './registrations.js';
import { mergePatchNode } from '../kube/client/node-merge-patch.js';

/**
 * Makes sure the Node a join waited for is the instance's before anything touches it (issue 10 item 2),
 * and records the ownership: already owned by the instance; or unannotated and registered through the
 * client CSR this operator approved for the instance's registration (now, or before a restart, as the
 * approval's message records). Anything else throws NodeNotOwnedError and the Node is left alone.
 */
export async function claimNode(
  core: CoreV1Api,
  registrations: Registrations,
  ref: InstanceRef,
  node: V1Node,
): Promise<void> {
  const nodeName = node.metadata?.name ?? '';
  if (!ownedBy(node, ref.address)) {
    const r = registrations.forAddress(ref.address);
    const approved =
      r?.nodeName === nodeName
        ? (r.approvedClientCsr ?? registrations.approvedClientCsr(nodeName, ref.address))
        : registrations.approvedClientCsr(nodeName, ref.address);
    if (nodeOwner(node) !== undefined || approved === undefined)
      throw new NodeNotOwnedError(nodeName, 'configure', nodeOwner(node), ref.address);
    await mergePatchNode(core, nodeName, {
      metadata: { annotations: { [Annotations.instanceAddress]: ref.address } },
    });
  }
  registrations.own({ ...ref, nodeName });
}
