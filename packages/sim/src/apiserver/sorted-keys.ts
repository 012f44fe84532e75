import { isObject, type Json } from './json.js';

/**
 * Every object's keys in sorted order, recursively: how Go's encoding/json writes a
 * `map[string]interface{}`, i.e. how kube-apiserver encodes custom resources (unstructured objects).
 */
export function sortedKeys(v: Json): Json {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (!isObject(v)) return v;
  const out: { [k: string]: Json } = {};
  for (const k of Object.keys(v).sort()) out[k] = sortedKeys(v[k] ?? null);
  return out;
}
