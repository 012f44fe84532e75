import { forbiddenOn } from './forbidden.js';
import { isObject, str, type JsonObject } from './json.js';
import { nodeIdentity } from './node-identity.js';
import type { RequestUser } from './request-user.js';
import type { ServerContext } from './server-context.js';

/** A delete (or an eviction, which deletes) as NodeRestriction sees it. */
export interface DeletionRequest {
  readonly user: RequestUser;
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  readonly verb: string;
}

const nodeNameOf = (o: JsonObject | undefined): string =>
  o && isObject(o['spec']) ? (str(o['spec']['nodeName']) ?? '') : '';

function podProblem(ctx: ServerContext, r: DeletionRequest, node: string): string | undefined {
  const pod = ctx.store.get(ctx.registry.mustFind('', 'v1', 'pods'), r.namespace, r.name);
  // A pod that does not exist: the handler answers 404, as the plugin's lister does.
  if (!pod || nodeNameOf(pod) === node) return undefined;
  return r.subresource === 'eviction'
    ? `node ${node} can only evict pods with spec.nodeName set to itself`
    : `node "${node}" can only delete pods with spec.nodeName set to itself`;
}

function leaseProblem(r: DeletionRequest, node: string): string | undefined {
  if (r.namespace !== 'kube-node-lease')
    return 'can only access leases in the "kube-node-lease" system namespace';
  return r.name === node ? undefined : 'can only access node lease with the same name as the requesting node';
}

function problem(ctx: ServerContext, r: DeletionRequest, node: string): string | undefined {
  const key = `${r.group}/${r.resource}`;
  if (key === '/nodes')
    return r.name === node ? undefined : `node "${node}" is not allowed to modify node "${r.name}"`;
  if (key === 'coordination.k8s.io/leases') return leaseProblem(r, node);
  if (key !== '/pods') return undefined;
  const evicts = r.subresource === 'eviction' && r.verb === 'create';
  return evicts || (r.subresource === '' && r.verb === 'delete') ? podProblem(ctx, r, node) : undefined;
}

/**
 * NodeRestriction for deletes and evictions (admitPod's Delete, admitPodEviction, admitLease, admitNode in
 * plugin/pkg/admission/noderestriction/admission.go, read at v1.32/v1.33): a node deletes or evicts only
 * the pods bound to itself, and deletes only its own Lease (and Node, which the Node authorizer already
 * refuses). Runs after authorization, before the object is touched.
 */
export function admitNodeDeletion(ctx: ServerContext, r: DeletionRequest): void {
  const deletes = r.verb === 'delete' || (r.verb === 'create' && r.subresource === 'eviction');
  const node = deletes ? nodeIdentity(r.user) : undefined;
  if (node === undefined) return;
  const p = node === '' ? `could not determine node from user "${r.user.name}"` : problem(ctx, r, node);
  if (p !== undefined) throw forbiddenOn(r.resource, r.group, r.name, p);
}
