import { KUBELET_CLIENT_SIGNER } from './csr-policy.js';
import type { CachedCsr } from './cached-csr.js';

export const APPROVAL_REASON = 'WMCOApprove';

/**
 * The message of the Approved condition the operator writes. It names the node and the instance, so the
 * approval itself is a durable record of which registration it served: only an approver can write the
 * condition (the requester cannot), and a new leader resuming a join reads it back (ADR 0008).
 * Upstream writes the same reason with the message "This CSR was approved by the WMCO certificate Approver."
 */
export function approvalMessage(nodeName: string, address: string): string {
  return `This CSR was approved by the WMCO certificate Approver for node ${nodeName} of instance ${address}.`;
}

/**
 * The client CSR this operator approved for `nodeName` on behalf of `address`, if the cluster still has
 * it (approved CSRs are kept for an hour by the cluster's CSR cleaner).
 */
export function approvedClientCsr(
  csrs: readonly CachedCsr[],
  nodeName: string,
  address: string,
): string | undefined {
  const message = approvalMessage(nodeName, address);
  const found = csrs.find(
    (c) =>
      c.spec.signerName === KUBELET_CLIENT_SIGNER &&
      (c.status?.conditions ?? []).some(
        (x) => x.type === 'Approved' && x.reason === APPROVAL_REASON && x.message === message,
      ),
  );
  return found?.metadata?.name;
}
