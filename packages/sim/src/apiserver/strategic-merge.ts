import { clone, deepEqual, isObject, type Json, type JsonObject } from './json.js';
import { ApiError } from './status.js';

/**
 * Strategic merge patch for built-in kinds: the subset kubectl and controllers actually send.
 * - maps merge recursively; `null` deletes a key; `$patch: replace|delete` on a map; `$retainKeys`;
 * - lists whose field has a merge key (table below) merge element-wise by that key, and honour
 *   `{"<key>": v, "$patch": "delete"}` and a `{"$patch": "replace"}` element;
 * - primitive lists with the merge strategy (`finalizers`) form a union, minus
 *   `$deleteFromPrimitiveList/<field>`;
 * - `$setElementOrder/<field>` is accepted and ignored (order is kept as merged);
 * - every other list is replaced, as upstream does for lists without a patch strategy (e.g. Node
 *   `spec.taints`, `tolerations`).
 */

/** Merge keys by `parent.field`, then by `field` alone. */
const MERGE_KEYS: Readonly<Record<string, string>> = {
  'containers.ports': 'containerPort',
  'initContainers.ports': 'containerPort',
  'spec.ports': 'port',
  conditions: 'type',
  containers: 'name',
  initContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  ownerReferences: 'uid',
  addresses: 'type',
  imagePullSecrets: 'name',
  hostAliases: 'ip',
};
const PRIMITIVE_MERGE = new Set(['finalizers']);

function mergeKeyFor(parent: string, field: string): string | undefined {
  return MERGE_KEYS[`${parent}.${field}`] ?? MERGE_KEYS[field];
}

function mergeKeyedList(target: Json[], patch: readonly Json[], key: string): Json[] {
  if (patch.some((e) => isObject(e) && e['$patch'] === 'replace')) {
    return patch.filter((e) => !(isObject(e) && e['$patch'] === 'replace')).map(clone);
  }
  const out = target.map(clone);
  for (const el of patch) {
    if (!isObject(el)) throw new ApiError(400, 'BadRequest', `list elements need the merge key "${key}"`);
    const idx = out.findIndex((t) => isObject(t) && deepEqual(t[key], el[key]));
    if (el['$patch'] === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) out[idx] = mergeValue(out[idx] ?? null, el, key);
    else out.push(mergeValue(null, el, key));
  }
  return out;
}

function mergePrimitiveList(target: readonly Json[], patch: readonly Json[]): Json[] {
  const out = [...target];
  for (const v of patch) if (!out.some((t) => deepEqual(t, v))) out.push(v);
  return out;
}

function mergeList(parent: string, field: string, target: Json, patch: Json[]): Json {
  const current = Array.isArray(target) ? target : [];
  const key = mergeKeyFor(parent, field);
  if (key !== undefined) return mergeKeyedList(current, patch, key);
  if (PRIMITIVE_MERGE.has(field)) return mergePrimitiveList(current, patch);
  return clone(patch);
}

function applyDirectives(out: JsonObject, patch: JsonObject): void {
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$deleteFromPrimitiveList/') && Array.isArray(v)) {
      const field = k.slice('$deleteFromPrimitiveList/'.length);
      const cur = out[field];
      if (Array.isArray(cur)) out[field] = cur.filter((x) => !v.some((d) => deepEqual(d, x)));
    }
  }
  const retain = patch['$retainKeys'];
  if (Array.isArray(retain)) {
    for (const k of Object.keys(out)) if (!retain.includes(k)) delete out[k];
  }
}

function mergeMap(target: Json, patch: JsonObject, name: string): Json {
  const directive = patch['$patch'];
  if (directive === 'delete') return null;
  const base: JsonObject = directive === 'replace' || !isObject(target) ? {} : clone(target);
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$')) continue;
    if (v === null) delete base[k];
    else if (Array.isArray(v)) base[k] = mergeList(name, k, base[k] ?? null, v);
    else base[k] = mergeValue(base[k] ?? null, v, k);
  }
  applyDirectives(base, patch);
  return base;
}

function mergeValue(target: Json, patch: Json, name: string): Json {
  if (isObject(patch)) return mergeMap(target, patch, name);
  return clone(patch);
}

export function applyStrategicMergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) {
    throw new ApiError(400, 'BadRequest', 'strategic merge patch body must be a JSON object');
  }
  return mergeMap(target, patch, '') ?? {};
}
