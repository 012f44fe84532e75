import { meta, str, type JsonObject } from '../apiserver/json.js';
import { DELETE_MACHINE_ANNOTATION, deleting, nodeRefName, obj } from './machine-objects.js';

/** MachineSet spec.deletePolicy values (machine-api: Random is the default). */
export type DeletePolicy = 'Random' | 'Newest' | 'Oldest';

export function deletePolicyOf(ms: JsonObject): DeletePolicy {
  const p = str(obj(ms['spec'])['deletePolicy']);
  return p === 'Newest' || p === 'Oldest' ? p : 'Random';
}

/** Machines that must go first whatever the policy: deleting, marked for deletion, failed, or never linked. */
function mustGo(m: JsonObject): number {
  if (deleting(m)) return 3;
  if (str(obj(meta(m)['annotations'])[DELETE_MACHINE_ANNOTATION]) !== undefined) return 3;
  const st = obj(m['status']);
  if (str(st['errorReason']) !== undefined || str(st['errorMessage']) !== undefined) return 3;
  return nodeRefName(m) === undefined ? 1 : 0;
}

function created(m: JsonObject): number {
  return Date.parse(str(meta(m)['creationTimestamp']) ?? '') || 0;
}

/**
 * The `count` Machines a scale-down deletes, as machine-api's delete policies choose them: marked,
 * failed and unlinked Machines first, then by policy (Newest: youngest first; Oldest: oldest first;
 * Random: any order).
 */
export function machinesToDelete(
  machines: readonly JsonObject[],
  count: number,
  policy: DeletePolicy,
  random: () => number = Math.random,
): JsonObject[] {
  const keyed = machines.map((m) => ({ m, first: mustGo(m), age: created(m), r: random() }));
  keyed.sort((a, b) => {
    if (a.first !== b.first) return b.first - a.first;
    if (policy === 'Newest') return b.age - a.age;
    if (policy === 'Oldest') return a.age - b.age;
    return a.r - b.r;
  });
  return keyed.slice(0, Math.max(0, count)).map((k) => k.m);
}
