import { deepEqual, isObject, meta, str, strMap, type JsonObject } from './json.js';
import { podReferences } from './node-graph.js';
import { refuse, requestingNode } from './node-restriction.js';
import type { ObjectStore } from './object-store.js';
import { errors } from './status.js';
import type { TypeHooks, WriteContext } from './type-hooks.js';
import type { TypeRegistry } from './type-registry.js';

/**
 * NodeRestriction for Pods (admitPodCreate, admitPodStatus in plugin/pkg/admission/noderestriction/
 * admission.go, read at v1.32/v1.33): a node creates only mirror pods bound to itself and owned by its
 * Node, referring to no Secret, ConfigMap, ServiceAccount, ClusterTrustBundle or claim; it updates the
 * status of its own pods only, without touching their labels. Deletes and evictions: node-deletion.ts.
 */

const MIRROR = 'kubernetes.io/config.mirror';
const objs = (v: unknown): JsonObject[] => (Array.isArray(v) ? v.filter(isObject) : []);
const spec = (o: JsonObject): JsonObject => (isObject(o['spec']) ? o['spec'] : {});
const name = (o: JsonObject): string => str(meta(o)['name']) ?? '';

function ownerShapeProblem(pod: JsonObject, node: string): string | undefined {
  const owners = objs(meta(pod)['ownerReferences']);
  if (owners.length > 1)
    return `node "${node}" can only create pods with a single owner reference set to itself`;
  const o = owners[0];
  const toNode = o && o['apiVersion'] === 'v1' && o['kind'] === 'Node' && o['name'] === node;
  if (!o || !toNode) return `node "${node}" can only create pods with an owner reference set to itself`;
  if (o['controller'] !== true)
    return `node "${node}" can only create pods with a controller owner reference set to itself`;
  if (o['blockOwnerDeletion'] === true)
    return `node "${node}" must not set blockOwnerDeletion on an owner reference`;
  return undefined;
}

function ownerProblem(pod: JsonObject, node: string, nodeUid: () => string | undefined): string | undefined {
  const shape = ownerShapeProblem(pod, node);
  if (shape !== undefined) return shape;
  const uid = nodeUid();
  if (uid === undefined) throw errors.notFound('nodes', '', node);
  const ownerUid = str(objs(meta(pod)['ownerReferences'])[0]?.['uid']) ?? '';
  return ownerUid === uid ? undefined : `node ${node} UID mismatch: expected ${ownerUid} got ${uid}`;
}

function referenceProblem(pod: JsonObject, node: string): string | undefined {
  const refs = podReferences(pod);
  const cannot = (what: string): string => `node "${node}" can not create pods that reference ${what}`;
  if (refs.serviceAccount !== '') return cannot('a service account');
  if (refs.secrets.size > 0) return cannot('secrets');
  if (refs.configMaps.size > 0) return cannot('configmaps');
  const bundles = objs(spec(pod)['volumes']).some((v) =>
    objs(isObject(v['projected']) ? v['projected']['sources'] : undefined).some((s) =>
      isObject(s['clusterTrustBundle']),
    ),
  );
  if (bundles) return cannot('clustertrustbundles');
  return refs.claims.size > 0 ? cannot('persistentvolumeclaims') : undefined;
}

function createProblem(pod: JsonObject, node: string, nodeUid: () => string | undefined): string | undefined {
  if (strMap(meta(pod)['annotations'])[MIRROR] === undefined)
    return `pod does not have "${MIRROR}" annotation, node "${node}" can only create mirror pods`;
  if (str(spec(pod)['nodeName']) !== node)
    return `node "${node}" can only create pods with spec.nodeName set to itself`;
  return ownerProblem(pod, node, nodeUid) ?? referenceProblem(pod, node);
}

function statusProblem(old: JsonObject, next: JsonObject, node: string): string | undefined {
  if (str(spec(old)['nodeName']) !== node)
    return `node "${node}" can only update pod status for pods with spec.nodeName set to itself`;
  if (!deepEqual(strMap(meta(old)['labels']), strMap(meta(next)['labels'])))
    return `node "${node}" cannot update labels through pod status`;
  const claims = (o: JsonObject): unknown =>
    isObject(o['status']) ? o['status']['resourceClaimStatuses'] : undefined;
  return deepEqual(claims(old) ?? [], claims(next) ?? [])
    ? undefined
    : `node "${node}" cannot update resource claim statues`;
}

/** The Pod hooks; `store` answers the owner Node's uid. */
export function nodeRestrictionPodHooks(store: ObjectStore, registry: TypeRegistry): TypeHooks {
  const nodeUid = (node: string) => (): string | undefined => {
    const n = store.get(registry.mustFind('', 'v1', 'nodes'), undefined, node);
    return n ? str(meta(n)['uid']) : undefined;
  };
  return {
    create(next: JsonObject, ctx: WriteContext): void {
      const node = requestingNode(ctx, name(next));
      if (node === undefined) return;
      const problem = createProblem(next, node, nodeUid(node));
      if (problem !== undefined) throw refuse(ctx, name(next), problem);
    },
    update(old: JsonObject, next: JsonObject, ctx: WriteContext): void {
      const node = requestingNode(ctx, name(old));
      if (node === undefined) return;
      const problem =
        ctx.subresource === 'status'
          ? statusProblem(old, next, node)
          : `unexpected operation "UPDATE", node "${node}" can only create and delete mirror pods`;
      if (problem !== undefined) throw refuse(ctx, name(old), problem);
    },
  };
}
