import { randomBytes } from 'node:crypto';
import { isObject, str, strList, type JsonObject } from './json.js';
import type { ResourceType } from './resource-type.js';
import { errors } from './status.js';

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** Kinds whose names may hold ':' and other path-safe characters (RBAC, as upstream). */
const PATH_SEGMENT_NAMES = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);
/** Kinds whose names must be DNS-1123 labels. */
const LABEL_NAMES = new Set(['Namespace', 'Service']);
const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

function randomSuffix(): string {
  return [...randomBytes(5)].map((b) => SUFFIX_ALPHABET[b % SUFFIX_ALPHABET.length]).join('');
}

/** Fills the name from generateName and drops fields a client may not set on create. */
export function prepareMeta(m: JsonObject): void {
  const gen = str(m['generateName']);
  if ((str(m['name']) ?? '') === '' && gen !== undefined && gen !== '') m['name'] = gen + randomSuffix();
  for (const k of [
    'uid',
    'resourceVersion',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'generation',
    'managedFields',
  ]) {
    delete m[k];
  }
}

function pathSegmentProblem(name: string): string | undefined {
  const bad = name === '.' || name === '..' || /[/%]/.test(name);
  return bad ? `Invalid value: "${name}": may not contain '/' or '%'` : undefined;
}

/** Why a name is invalid for a kind, or undefined when it is fine. */
function nameProblem(kind: string, name: string): string | undefined {
  if (name === '') return 'Required value: name or generateName is required';
  if (PATH_SEGMENT_NAMES.has(kind)) return pathSegmentProblem(name);
  const label = LABEL_NAMES.has(kind);
  const ok = label
    ? DNS1123_LABEL.test(name) && name.length <= 63
    : DNS1123_SUBDOMAIN.test(name) && name.length <= 253;
  if (ok) return undefined;
  const what = label ? 'RFC 1123 label' : 'RFC 1123 subdomain';
  return `Invalid value: "${name}": a lowercase ${what} must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`;
}

export function validateName(t: ResourceType, m: JsonObject): void {
  const name = str(m['name']) ?? '';
  const problem = nameProblem(t.kind, name);
  if (problem !== undefined)
    throw errors.invalid(t.kind, t.group, name, [{ field: 'metadata.name', message: problem }]);
}

/** What keeps an object with a deletionTimestamp alive: its finalizers (and a Namespace's spec.finalizers). */
export function removalBlockers(t: ResourceType, obj: JsonObject): string[] {
  const m = isObject(obj['metadata']) ? obj['metadata'] : {};
  const fins = strList(m['finalizers']);
  if (t.kind === 'Namespace' && t.group === '' && isObject(obj['spec'])) {
    return [...fins, ...strList(obj['spec']['finalizers'])];
  }
  return fins;
}

/** The part of an object whose changes bump generation: everything except metadata and status. */
export function specPart(obj: JsonObject): JsonObject {
  const { metadata: _m, status: _s, ...rest } = obj;
  return rest;
}
