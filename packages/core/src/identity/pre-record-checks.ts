import type { V1Node } from '@kubernetes/client-node';
import { Annotations } from './node-metadata.js';
import { decryptUsername } from './username-crypto.js';

/**
 * The checks every migration of a node joined before records existed makes (issue 27 item 1), shared by
 * the BYOH and the Machine sources: the node's written fields are only compared with operator-side data,
 * never taken as they are.
 */

/**
 * The other Nodes that claim one of `addresses`: any entry of their `status.addresses` (InternalIP,
 * ExternalIP, InternalDNS, Hostname: a kubelet may report any of them) equal to one, case-insensitively,
 * or an owner annotation naming `owner`. `nodes` must be every Node the operator sees, whatever its
 * source labels (a node may drop a label of its own).
 */
export function otherClaimants(
  nodes: readonly V1Node[],
  self: string,
  claim: { readonly addresses: readonly string[]; readonly owns: (node: V1Node) => boolean },
): string[] {
  const wanted = new Set(claim.addresses.filter((a) => a !== '').map((a) => a.toLowerCase()));
  const claims = (n: V1Node): boolean =>
    claim.owns(n) || (n.status?.addresses ?? []).some((a) => wanted.has(String(a.address).toLowerCase()));
  return nodes
    .filter((n) => (n.metadata?.name ?? '') !== self && claims(n))
    .map((n) => n.metadata?.name ?? '');
}

/**
 * Why the Node's `username` annotation does not vouch for `expected`: it is missing, does not decrypt
 * with the operator's key, or names another user. Undefined when it decrypts to `expected`.
 */
export function usernameProblem(
  node: V1Node,
  privateKeyPem: string,
  expected: { readonly user: string; readonly whose: string },
): string | undefined {
  const encrypted = node.metadata?.annotations?.[Annotations.username];
  if (encrypted === undefined || encrypted === '') return 'it has no username annotation';
  let user: string;
  try {
    user = decryptUsername(encrypted, privateKeyPem);
  } catch {
    return 'its username annotation does not decrypt with the operator’s key';
  }
  return user === expected.user
    ? undefined
    : `its username annotation names another user than ${expected.whose}`;
}
