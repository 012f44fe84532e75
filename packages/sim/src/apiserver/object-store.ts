import { EventLog, type EventType, type StoreEvent } from './event-log.js';
import { clone, meta, str, type JsonObject } from './json.js';
import { typeKey, type ResourceType } from './resource-type.js';
import { matchesFields, matchesLabels, type FieldRequirement, type LabelRequirement } from './selectors.js';
import { snapshotAt } from './list-snapshot.js';
import { errors } from './status.js';

export interface Selection {
  readonly namespace?: string;
  readonly labels: readonly LabelRequirement[];
  readonly fields: readonly FieldRequirement[];
}

export interface ListPage {
  readonly items: JsonObject[];
  readonly resourceVersion: string;
  readonly continueToken?: string;
  readonly remaining?: number;
}

export type StoreListener = (e: StoreEvent) => void;

export function objectKey(namespace: string | undefined, name: string): string {
  return `${namespace ?? ''}/${name}`;
}

export function matches(sel: Selection, obj: JsonObject): boolean {
  const m = meta(obj);
  if (sel.namespace !== undefined && str(m['namespace']) !== sel.namespace) return false;
  return (
    matchesLabels(sel.labels, m['labels'] as Record<string, string> | undefined) &&
    matchesFields(sel.fields, obj)
  );
}

interface ContinueToken {
  readonly rv: number;
  readonly after: string;
}

function decodeContinue(token: string): ContinueToken {
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<ContinueToken>;
    if (typeof v.rv === 'number' && typeof v.after === 'string') return { rv: v.rv, after: v.after };
  } catch {
    // fall through to the error below
  }
  throw errors.badRequest('continue key is not valid: malformed continue token');
}

/** The first `limit` of `selected` (keyed objects), with the token of the rest and, when `counted`, its size. */
function pageOf(
  selected: readonly [string, JsonObject][],
  o: { limit: number | undefined; rv: number; counted: boolean },
): ListPage {
  const page = o.limit !== undefined && o.limit > 0 ? selected.slice(0, o.limit) : selected;
  const rest = selected.length - page.length;
  const last = page[page.length - 1];
  const token = (after: string): string =>
    Buffer.from(JSON.stringify({ rv: o.rv, after })).toString('base64url');
  return {
    items: page.map(([, obj]) => clone(obj)),
    resourceVersion: String(o.rv),
    ...(rest > 0 && last ? { continueToken: token(last[0]), ...(o.counted ? { remaining: rest } : {}) } : {}),
  };
}

/**
 * Raw storage: one resourceVersion counter for every object of every type, the event log, and the
 * listeners (watches, controllers) that each commit is fanned out to. Semantics live in ObjectWriter.
 */
export class ObjectStore {
  private readonly data = new Map<string, Map<string, JsonObject>>();
  private readonly listeners = new Set<StoreListener>();
  readonly log = new EventLog();
  private rv = 1000;

  get currentRv(): number {
    return this.rv;
  }

  private bucket(t: ResourceType): Map<string, JsonObject> {
    const k = typeKey(t);
    let b = this.data.get(k);
    if (!b) {
      b = new Map();
      this.data.set(k, b);
    }
    return b;
  }

  get(t: ResourceType, namespace: string | undefined, name: string): JsonObject | undefined {
    const o = this.bucket(t).get(objectKey(t.namespaced ? namespace : undefined, name));
    return o === undefined ? undefined : clone(o);
  }

  /** All objects of a type, sorted by namespace/name (no copies: callers must not mutate). */
  all(t: ResourceType): JsonObject[] {
    return [...this.bucket(t).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, o]) => o);
  }

  /**
   * One page of a list, as the apiserver pages etcd: the first page is read now; a continue token carries
   * that read's resourceVersion and the last key, and later pages are read at that resourceVersion (a
   * consistent snapshot, as etcd's MVCC serves it) and report it. A token older than the history kept is
   * 410 Expired. `remainingItemCount` only for lists without a selector (etcd3's store counts it only then).
   */
  list(t: ResourceType, sel: Selection, limit?: number, continueToken?: string): ListPage {
    const from = continueToken === undefined ? undefined : decodeContinue(continueToken);
    if (from) this.assertContinuable(from.rv);
    const source = from
      ? snapshotAt(this.bucket(t), this.log.since(from.rv, typeKey(t)), t.namespaced)
      : this.bucket(t);
    const keyed = [...source.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const selected = keyed.filter(([k, o]) => (from === undefined || k > from.after) && matches(sel, o));
    const unselected = sel.labels.length === 0 && sel.fields.length === 0;
    return pageOf(selected, { limit, rv: from?.rv ?? this.rv, counted: unselected });
  }

  /** The apiserver's refusal of a continue token whose resourceVersion was compacted away. */
  private assertContinuable(rv: number): void {
    if (rv >= this.log.oldestValid) return;
    throw errors.expired(
      'The provided continue parameter is too old to display a consistent list result. You can start a new ' +
        'list without the continue parameter.',
    );
  }

  /** Stores a new state (or removes it for DELETED), stamps a fresh resourceVersion and fans out. */
  commit(t: ResourceType, type: EventType, object: JsonObject, prev?: JsonObject): JsonObject {
    this.rv += 1;
    const stored = clone(object);
    const m = meta(stored);
    m['resourceVersion'] = String(this.rv);
    const key = objectKey(t.namespaced ? str(m['namespace']) : undefined, str(m['name']) ?? '');
    if (type === 'DELETED') this.bucket(t).delete(key);
    else this.bucket(t).set(key, stored);
    const event: StoreEvent = {
      type,
      rv: this.rv,
      typeKey: typeKey(t),
      object: stored,
      ...(prev ? { prev } : {}),
    };
    this.log.append(event);
    for (const l of [...this.listeners]) l(event);
    return clone(stored);
  }

  subscribe(l: StoreListener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** Test hook: forget history up to now (watch/list from older resourceVersions then get 410). */
  compact(): void {
    this.log.compact(this.rv);
  }

  dropType(t: ResourceType): void {
    this.data.delete(typeKey(t));
  }
}
