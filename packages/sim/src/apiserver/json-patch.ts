import { clone, deepEqual, isObject, type Json } from './json.js';
import { ApiError } from './status.js';

/** RFC 6902 JSON Patch and RFC 7386 JSON Merge Patch. */

interface Op {
  readonly op: string;
  readonly path: string;
  readonly from?: string;
  readonly value?: Json;
}

function bad(message: string): ApiError {
  return new ApiError(422, 'Invalid', message);
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw bad(`invalid JSON pointer "${path}"`);
  return path
    .slice(1)
    .split('/')
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function parentOf(doc: Json, parts: readonly string[], path: string): Json {
  let cur = doc;
  for (const p of parts.slice(0, -1)) {
    const next: Json | undefined = Array.isArray(cur) ? cur[Number(p)] : isObject(cur) ? cur[p] : undefined;
    if (next === undefined) throw bad(`doc is missing path: "${path}"`);
    cur = next;
  }
  return cur;
}

function get(doc: Json, path: string): Json {
  const parts = pointer(path);
  if (parts.length === 0) return doc;
  const parent = parentOf(doc, parts, path);
  const key = parts[parts.length - 1] ?? '';
  const v = Array.isArray(parent) ? parent[Number(key)] : isObject(parent) ? parent[key] : undefined;
  if (v === undefined) throw bad(`doc is missing path: "${path}"`);
  return v;
}

function arrayIndex(arr: readonly Json[], key: string, forAdd: boolean, path: string): number {
  if (forAdd && key === '-') return arr.length;
  const i = Number(key);
  const max = forAdd ? arr.length : arr.length - 1;
  if (!/^\d+$/.test(key) || i > max) throw bad(`invalid array index in path: "${path}"`);
  return i;
}

function add(doc: Json, path: string, value: Json): Json {
  const parts = pointer(path);
  if (parts.length === 0) return value;
  const parent = parentOf(doc, parts, path);
  const key = parts[parts.length - 1] ?? '';
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true, path), 0, value);
  else if (isObject(parent)) parent[key] = value;
  else throw bad(`doc is missing path: "${path}"`);
  return doc;
}

function remove(doc: Json, path: string): Json {
  const parts = pointer(path);
  const parent = parentOf(doc, parts, path);
  const key = parts[parts.length - 1] ?? '';
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, false, path), 1);
  else if (isObject(parent) && Object.hasOwn(parent, key)) delete parent[key];
  else throw bad(`unable to remove nonexistent key: ${key}: missing value`);
  return doc;
}

const OPS: Readonly<Record<string, (doc: Json, op: Op) => Json>> = {
  add: (doc, op) => add(doc, op.path, clone(op.value ?? null)),
  remove: (doc, op) => remove(doc, op.path),
  replace: (doc, op) => {
    get(doc, op.path);
    return add(remove(doc, op.path), op.path, clone(op.value ?? null));
  },
  move: (doc, op) => {
    const from = op.from ?? '';
    const v = get(doc, from);
    return add(remove(doc, from), op.path, v);
  },
  copy: (doc, op) => add(doc, op.path, clone(get(doc, op.from ?? ''))),
  test: (doc, op) => {
    if (!deepEqual(get(doc, op.path), op.value)) throw bad(`testing value ${op.path} failed`);
    return doc;
  },
};

function applyOp(doc: Json, op: Op): Json {
  const fn = OPS[op.op];
  if (!fn) throw bad(`Unexpected kind: ${op.op}`);
  return fn(doc, op);
}

export function applyJsonPatch(target: Json, patch: unknown): Json {
  if (!Array.isArray(patch)) {
    throw new ApiError(400, 'BadRequest', 'json patch body must be a JSON array of operations');
  }
  let doc = clone(target);
  for (const raw of patch) {
    if (!isObject(raw) || typeof raw['op'] !== 'string' || typeof raw['path'] !== 'string') {
      throw new ApiError(400, 'BadRequest', 'each json patch operation needs string "op" and "path"');
    }
    doc = applyOp(doc, raw as unknown as Op);
  }
  return doc;
}

export function applyMergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return clone(patch);
  const out = isObject(target) ? clone(target) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k] ?? null, v);
  }
  return out;
}
