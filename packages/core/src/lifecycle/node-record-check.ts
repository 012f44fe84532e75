import type { V1Node } from '@kubernetes/client-node';
import { CloudAnnotations, appliedTagsOf } from './cloud-instance.js';
import { Annotations } from '../identity/node-metadata.js';
import { decryptUsername } from '../identity/username-crypto.js';
import type { CloudTag } from '../provider/capabilities/instance-tagging.js';
import type { NodeRecord } from '../identity/node-record.js';

/** The operator's key, to read the node's username annotation (only when it was written with this key). */
export interface OperatorKey {
  readonly privateKeyPem: string;
  readonly publicKeyHash: string;
}

function tagSet(tags: readonly CloudTag[]): string {
  return JSON.stringify(tags.map((t) => `${t.key}=${t.value}`).sort());
}

function ownerProblem(node: V1Node, r: NodeRecord): string | undefined {
  const a = node.metadata?.annotations ?? {};
  const owner = a[Annotations.instanceAddress];
  const machine = a[Annotations.machine];
  // A listed host (windows-instances or an embedder's source) is owned by the address it is listed under.
  if (r.source !== 'machine' && owner !== r.instance)
    return `its ${Annotations.instanceAddress} annotation says ${JSON.stringify(owner ?? null)}, the record ${JSON.stringify(r.instance)}`;
  if (r.source === 'machine' && (machine !== r.instance || owner !== undefined))
    return `its ${Annotations.machine} annotation says ${JSON.stringify(machine ?? null)}, the record ${JSON.stringify(r.instance)}`;
  return undefined;
}

function addressProblem(node: V1Node, r: NodeRecord): string | undefined {
  const other = (node.status?.addresses ?? []).find(
    (x) => x.type === 'InternalIP' && x.address !== r.address,
  );
  return other ? `its InternalIP is ${other.address}, the record ${r.address}` : undefined;
}

function usernameProblem(node: V1Node, r: NodeRecord, key: OperatorKey | undefined): string | undefined {
  const a = node.metadata?.annotations ?? {};
  const encrypted = a[Annotations.username];
  // Written with an earlier key (a rotation is due): not readable, not a contradiction.
  if (encrypted === undefined || key === undefined || a[Annotations.pubKeyHash] !== key.publicKeyHash)
    return undefined;
  let username: string;
  try {
    username = decryptUsername(encrypted, key.privateKeyPem);
  } catch {
    return 'its username annotation does not decrypt with the operator’s key';
  }
  return username === r.username ? undefined : 'its username annotation names another user than the record';
}

function tagsProblem(node: V1Node, r: NodeRecord): string | undefined {
  const annotation = node.metadata?.annotations?.[CloudAnnotations.appliedTags];
  if (annotation === undefined) return undefined;
  return tagSet(appliedTagsOf(annotation)) === tagSet(r.appliedTags)
    ? undefined
    : 'its cloud-applied-tags annotation lists other tags than the operator applied';
}

/**
 * Where a Node's own fields (which its kubelet may write) contradict the operator's record of the
 * instance: owner annotation, InternalIP, username annotation, cloud-applied-tags. An empty list: they
 * agree. A Node that contradicts its record is reported and never acted on (ADR 0035).
 */
export function recordDisagreements(node: V1Node, r: NodeRecord, key?: OperatorKey): string[] {
  const name = node.metadata?.name ?? '';
  const problems = [
    name === r.nodeName ? undefined : `it is named ${name}, the record ${r.nodeName}`,
    ownerProblem(node, r),
    addressProblem(node, r),
    usernameProblem(node, r, key),
    tagsProblem(node, r),
  ];
  return problems.filter((p): p is string => p !== undefined);
}
