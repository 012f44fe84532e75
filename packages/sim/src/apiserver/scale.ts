import { clone, isObject, meta, str, type Json, type JsonObject } from './json.js';
import type { ResourceType, ScalePaths } from './resource-type.js';
import { ApiError, errors } from './status.js';

/**
 * The scale subresource of a custom resource, as apiextensions-apiserver's ScaleREST serves it: an
 * autoscaling/v1 Scale read from the CRD's specReplicasPath/statusReplicasPath/labelSelectorPath, and
 * writes that set only the spec replicas field of the stored object.
 */

/** A version's `subresources.scale`, when it has one with a spec replicas path. */
export function scalePaths(v: JsonObject): ScalePaths | undefined {
  const s = isObject(v['subresources']) ? v['subresources']['scale'] : undefined;
  if (!isObject(s)) return undefined;
  const spec = str(s['specReplicasPath']);
  if (spec === undefined) return undefined;
  const selector = str(s['labelSelectorPath']);
  return {
    specReplicasPath: spec,
    statusReplicasPath: str(s['statusReplicasPath']) ?? '',
    ...(selector !== undefined ? { labelSelectorPath: selector } : {}),
  };
}

/** A CRD version's served subresources (status, scale) and its scale paths, as ResourceType fields. */
export function subresourceFields(v: JsonObject): { subresources: string[]; scale?: ScalePaths } {
  const subs = isObject(v['subresources']) ? v['subresources'] : {};
  const scale = scalePaths(v);
  const status = isObject(subs['status']) ? ['status'] : [];
  return scale ? { subresources: [...status, 'scale'], scale } : { subresources: status };
}

/** What the real server puts in spec.replicas of the Scale a patch starts from when the field is missing. */
const MISSING_REPLICAS = -2147483648;
const INT32_MAX = 2147483647;

function segments(path: string): string[] {
  return path.replace(/^\./, '').split('.');
}

function lookup(o: JsonObject, path: string): Json | undefined {
  let cur: Json | undefined = o;
  for (const s of segments(path)) cur = isObject(cur) ? cur[s] : undefined;
  return cur;
}

function internal(message: string): ApiError {
  return new ApiError(500, 'InternalError', `Internal error occurred: ${message}`);
}

/** An integer field, like unstructured.NestedInt64: missing is `undefined`, another type is an error. */
function intAt(o: JsonObject, path: string): number | undefined {
  const v = lookup(o, path);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw internal(`${path} accessor error: ${JSON.stringify(v)} is of the type ${typeof v}, expected int64`);
  }
  return v;
}

function pathsOf(t: ResourceType): ScalePaths {
  if (!t.scale) throw errors.notFound(t.plural, t.group, '');
  return t.scale;
}

/** The Scale of an object, and whether its spec replicas field exists. */
function scaleOf(t: ResourceType, o: JsonObject): { scale: JsonObject; found: boolean } {
  const p = pathsOf(t);
  const spec = intAt(o, p.specReplicasPath);
  const m = meta(o);
  const selector = p.labelSelectorPath ? str(lookup(o, p.labelSelectorPath)) : undefined;
  const keep = ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp'];
  const scale: JsonObject = {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: Object.fromEntries(keep.filter((k) => m[k] !== undefined).map((k) => [k, m[k] ?? null])),
    spec: { replicas: spec ?? 0 },
    status: {
      replicas: intAt(o, p.statusReplicasPath) ?? 0,
      ...(selector !== undefined && selector !== '' ? { selector } : {}),
    },
  };
  return { scale, found: spec !== undefined };
}

/** GET .../scale: a missing spec replicas field is an internal error, as upstream. */
export function readScale(t: ResourceType, o: JsonObject): JsonObject {
  const { scale, found } = scaleOf(t, o);
  if (!found) {
    throw internal(`the spec replicas field "${pathsOf(t).specReplicasPath}" does not exist`);
  }
  return scale;
}

/** The Scale a PATCH applies to: spec.replicas carries the "missing" marker when the field does not exist. */
export function patchBase(t: ResourceType, o: JsonObject): JsonObject {
  const { scale, found } = scaleOf(t, o);
  if (!found) scale['spec'] = { replicas: MISSING_REPLICAS };
  return scale;
}

function checkScaleKind(body: JsonObject): void {
  const kind = str(body['kind']);
  const apiVersion = str(body['apiVersion']);
  if (
    (kind !== undefined && kind !== 'Scale') ||
    (apiVersion !== undefined && apiVersion !== 'autoscaling/v1')
  ) {
    throw errors.badRequest(
      `the API version in the data (${apiVersion ?? ''}) does not match the expected API version (autoscaling/v1)`,
    );
  }
}

/** spec.replicas of an incoming Scale: an int32 (decoding fails otherwise), 0 when absent. */
function replicasOf(t: ResourceType, scale: JsonObject): number {
  const v = isObject(scale['spec']) ? scale['spec']['replicas'] : undefined;
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number' || !Number.isInteger(v) || v > INT32_MAX || v < MISSING_REPLICAS) {
    throw errors.badRequest(
      `Scale in version "v1" cannot be handled as a Scale: spec.replicas: ${JSON.stringify(v)} is not an int32`,
    );
  }
  if (v === MISSING_REPLICAS) {
    throw errors.badRequest(`the spec replicas field "${pathsOf(t).specReplicasPath}" cannot be empty`);
  }
  return v;
}

/** The CRD validation of the replicas field (ValidateScaleSpec): non-negative. */
function validateReplicas(t: ResourceType, name: string, replicas: number): void {
  if (replicas >= 0) return;
  throw errors.invalid(t.kind, t.group, name, [
    {
      field: pathsOf(t).specReplicasPath,
      message: `Invalid value: ${String(replicas)}: should be a non-negative integer`,
    },
  ]);
}

function setAt(o: JsonObject, path: string, value: number): void {
  const segs = segments(path);
  let cur = o;
  for (const s of segs.slice(0, -1)) {
    const next = cur[s];
    if (next !== undefined && next !== null && !isObject(next)) {
      throw errors.badRequest(`value cannot be set because ${path} is not a map`);
    }
    cur = isObject(next) ? next : (cur[s] = {});
  }
  cur[segs[segs.length - 1] ?? ''] = value;
}

/**
 * The stored object a Scale write produces: the current object with only the spec replicas field set,
 * and the Scale's resourceVersion (when given) as the precondition of the update.
 */
export function objectFromScale(
  t: ResourceType,
  current: JsonObject,
  scale: JsonObject,
  name: string,
): JsonObject {
  checkScaleKind(scale);
  const bodyName = str(meta(scale)['name']);
  if (bodyName !== undefined && bodyName !== name) {
    throw errors.badRequest(
      `the name of the object (${bodyName}) does not match the name on the URL (${name})`,
    );
  }
  const replicas = replicasOf(t, scale);
  validateReplicas(t, name, replicas);
  const next = clone(current);
  setAt(next, pathsOf(t).specReplicasPath, replicas);
  const rv = str(meta(scale)['resourceVersion']) ?? '';
  meta(next)['resourceVersion'] = rv !== '' ? rv : (meta(current)['resourceVersion'] ?? null);
  return next;
}
