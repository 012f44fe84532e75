import { meta, str, strMap, type JsonObject } from '../apiserver/json.js';
import { DELETE_MACHINE_ANNOTATION, deleting, nodeRefName, obj } from './machine-objects.js';

/** MachineSet spec.deletePolicy values (machine-api: Random is the default). */
export type DeletePolicy = 'Random' | 'Newest' | 'Oldest';

export function deletePolicyOf(ms: JsonObject): DeletePolicy {
  const p = str(obj(ms['spec'])['deletePolicy']);
  return p === 'Newest' || p === 'Oldest' ? p : 'Random';
}

/** The annotation's name before machine-api moved to machine.openshift.io (still honoured). */
const OLD_DELETE_ANNOTATION = 'cluster.k8s.io/delete-machine';

/**
 * Which Machines go first (higher first), before the policy's own order: deleting ones; marked or
 * failed ones; and, for Random only, Machines with no Node yet (machine-api's delete_policy.go).
 */
function markedOrFailed(m: JsonObject): boolean {
  const ann = strMap(meta(m)['annotations']);
  const st = obj(m['status']);
  return (
    [ann[DELETE_MACHINE_ANNOTATION], ann[OLD_DELETE_ANNOTATION]].some((v) => v !== undefined && v !== '') ||
    str(st['errorReason']) !== undefined ||
    str(st['errorMessage']) !== undefined
  );
}

function mustGo(m: JsonObject, policy: DeletePolicy): number {
  if (deleting(m)) return 3;
  if (markedOrFailed(m)) return policy === 'Random' ? 2 : 3;
  return policy === 'Random' && nodeRefName(m) === undefined ? 1 : 0;
}

function created(m: JsonObject): number {
  return Date.parse(str(meta(m)['creationTimestamp']) ?? '') || 0;
}

/**
 * The `count` Machines a scale-down deletes, as machine-api's delete policies choose them: marked
 * and failed Machines first (and for Random, Machines without a Node), then by policy (Newest:
 * youngest first; Oldest: oldest first; Random: any order).
 */
export function machinesToDelete(
  machines: readonly JsonObject[],
  count: number,
  policy: DeletePolicy,
  random: () => number = Math.random,
): JsonObject[] {
  const keyed = machines.map((m) => ({ m, first: mustGo(m, policy), age: created(m), r: random() }));
  keyed.sort((a, b) => {
    if (a.first !== b.first) return b.first - a.first;
    if (policy === 'Newest') return b.age - a.age;
    if (policy === 'Oldest') return a.age - b.age;
    return a.r - b.r;
  });
  return keyed.slice(0, Math.max(0, count)).map((k) => k.m);
}
