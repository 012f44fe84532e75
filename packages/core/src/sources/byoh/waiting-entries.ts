import type { NodeRecords } from '../../identity/node-record-store.js';
import type { RecordSource } from '../../identity/node-record.js';

/**
 * The entries of a BYOH source behind node names that waited for the disruption budget, as their node
 * records say (`instance` is the entry's key); `unknown` is true when a name has no record at all (a
 * node joined before records, or a record not yet in the cache), so the caller looks at every entry.
 * A name recorded for another source (a Machine's node) is not this source's to look at.
 */
export function waitingEntries(
  names: readonly string[],
  records: Pick<NodeRecords, 'forNode'>,
  source: RecordSource,
): { readonly entries: string[]; readonly unknown: boolean } {
  const entries: string[] = [];
  let unknown = false;
  for (const name of names) {
    const r = records.forNode(name);
    if (r === undefined) unknown = true;
    else if (r.source === source) entries.push(r.instance);
  }
  return { entries, unknown };
}
