import type { StoreEvent } from './event-log.js';
import { meta, str, type JsonObject } from './json.js';

/** The store key of an object in an event (namespace/name). */
function keyOf(o: JsonObject, namespaced: boolean): string {
  const m = meta(o);
  return `${namespaced ? (str(m['namespace']) ?? '') : ''}/${str(m['name']) ?? ''}`;
}

/**
 * The objects of one type as they were at an older resourceVersion: the current ones with every later
 * change of the type undone, newest first (an ADDED removed, a MODIFIED or DELETED put back as it was).
 * `later`: the type's events after that resourceVersion, oldest first (the log must still hold them).
 * This is what etcd's MVCC read at a revision gives the apiserver for the later pages of a paged list.
 */
export function snapshotAt(
  current: ReadonlyMap<string, JsonObject>,
  later: readonly StoreEvent[],
  namespaced: boolean,
): Map<string, JsonObject> {
  const at = new Map(current);
  for (const e of [...later].reverse()) {
    const key = keyOf(e.object, namespaced);
    if (e.type === 'ADDED' || e.prev === undefined) at.delete(key);
    else at.set(key, e.prev);
  }
  return at;
}
