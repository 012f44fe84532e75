import { forbiddenOn } from './forbidden.js';
import { deepEqual, isObject, meta, str, strMap, type JsonObject } from './json.js';
import { parseCsrRequest } from './csr-admission.js';
import { forbiddenLabelChanges } from './node-labels.js';
import { nodeIdentity } from './node-identity.js';
import type { ApiError } from './status.js';
import type { TypeHooks, WriteContext } from './type-hooks.js';

/**
 * The NodeRestriction admission plugin of kube-apiserver (plugin/pkg/admission/noderestriction/
 * admission.go, read at v1.32/v1.33) for Nodes, Leases and CSRs: what a node identity may write once the
 * Node authorizer let the request through. Pods are in node-restriction-pods.ts. Refusals are 403s
 * worded as the plugin's `admission.NewForbidden`.
 */

const name = (o: JsonObject): string => str(meta(o)['name']) ?? '';
const spec = (o: JsonObject): JsonObject => (isObject(o['spec']) ? o['spec'] : {});
const labels = (o: JsonObject): Record<string, string> => strMap(meta(o)['labels']);
/** apimachinery's semantic equality: an empty list equals an absent one. */
const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export function refuse(ctx: WriteContext, objectName: string, err: string): ApiError {
  return forbiddenOn(ctx.type.plural, ctx.type.group, objectName, err);
}

/** The node a request comes from; undefined for anyone else. A node without a name is refused. */
export function requestingNode(ctx: WriteContext, objectName: string): string | undefined {
  const node = nodeIdentity(ctx.user);
  if (node === '') throw refuse(ctx, objectName, `could not determine node from user "${ctx.user.name}"`);
  return node;
}

function ownNode(ctx: WriteContext, node: string, n: string): void {
  if (n !== node) throw refuse(ctx, n, `node "${node}" is not allowed to modify node "${n}"`);
}

function admitNodeCreate(next: JsonObject, ctx: WriteContext): void {
  const n = name(next);
  const node = requestingNode(ctx, n);
  if (node === undefined) return;
  ownNode(ctx, node, n);
  if (spec(next)['configSource'] !== undefined)
    throw refuse(ctx, n, `node "${node}" is not allowed to create pods with a non-nil configSource`);
  const bad = forbiddenLabelChanges(labels(next), {});
  if (bad.length > 0)
    throw refuse(ctx, n, `node "${node}" is not allowed to set the following labels: ${bad.join(', ')}`);
}

function admitNodeUpdate(old: JsonObject, next: JsonObject, ctx: WriteContext): void {
  const n = name(old);
  const node = requestingNode(ctx, n);
  if (node === undefined) return;
  ownNode(ctx, node, n);
  const source = spec(next)['configSource'];
  if (source !== undefined && !deepEqual(source, spec(old)['configSource']))
    throw refuse(
      ctx,
      n,
      `node "${node}" is not allowed to update configSource to a new non-nil configSource`,
    );
  if (!deepEqual(listOf(spec(next)['taints']), listOf(spec(old)['taints'])))
    throw refuse(ctx, n, `node "${node}" is not allowed to modify taints`);
  const bad = forbiddenLabelChanges(labels(next), labels(old));
  if (bad.length > 0) throw refuse(ctx, n, `is not allowed to modify labels: ${bad.join(', ')}`);
}

export const nodeRestrictionNodeHooks: TypeHooks = { create: admitNodeCreate, update: admitNodeUpdate };

function admitLease(o: JsonObject, ctx: WriteContext): void {
  const n = name(o);
  const node = requestingNode(ctx, n);
  if (node === undefined) return;
  if (str(meta(o)['namespace']) !== 'kube-node-lease')
    throw refuse(ctx, n, 'can only access leases in the "kube-node-lease" system namespace');
  if (n !== node)
    throw refuse(ctx, n, 'can only access node lease with the same name as the requesting node');
}

export const nodeRestrictionLeaseHooks: TypeHooks = {
  create: admitLease,
  update: (old, _next, ctx) => admitLease(old, ctx),
};

const NODE_SIGNERS = ['kubernetes.io/kubelet-serving', 'kubernetes.io/kube-apiserver-client-kubelet'];

/** A node's kubelet CSRs must name the node itself (unless AllowInsecureKubeletCertificateSigningRequests). */
function admitCsrCreate(next: JsonObject, ctx: WriteContext): void {
  const n = name(next);
  const node = requestingNode(ctx, n);
  if (node === undefined || !NODE_SIGNERS.includes(str(spec(next)['signerName']) ?? '')) return;
  const parsed = parseCsrRequest(spec(next)['request']);
  if (typeof parsed === 'string') throw refuse(ctx, n, `unable to parse csr: ${parsed}`);
  const cn = parsed.subjectName.getField('CN')[0] ?? '';
  if (cn !== `system:node:${node}`)
    throw refuse(ctx, n, `can only create a node CSR with CN=system:node:${node}`);
}

export const nodeRestrictionCsrHooks: TypeHooks = { create: admitCsrCreate };
