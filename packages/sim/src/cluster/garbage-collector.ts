import type { StoreEvent } from '../apiserver/event-log.js';
import { isObject, meta, str, strList, type JsonObject } from '../apiserver/json.js';
import type { ResourceType } from '../apiserver/resource-type.js';
import { StoreEventController } from './controller.js';

interface Dependent {
  readonly type: ResourceType;
  readonly object: JsonObject;
}

function owners(o: JsonObject): JsonObject[] {
  const refs = meta(o)['ownerReferences'];
  return Array.isArray(refs) ? refs.filter(isObject) : [];
}

/**
 * The garbage collector: background deletion of dependents whose owners are all gone (dangling references
 * to a missing owner are removed when other owners remain), the `orphan` finalizer (strip references,
 * keep dependents) and `foregroundDeletion` (delete dependents first, then the owner).
 */
export class GarbageCollector extends StoreEventController {
  readonly name = 'garbage-collector';

  private liveUids(): Set<string> {
    const uids = new Set<string>();
    for (const t of this.writer.registry.all())
      for (const o of this.writer.store.all(t)) uids.add(str(meta(o)['uid']) ?? '');
    return uids;
  }

  private dependentsOf(uid: string): Dependent[] {
    const out: Dependent[] = [];
    for (const type of this.writer.registry.all()) {
      for (const object of this.writer.store.all(type)) {
        if (owners(object).some((r) => r['uid'] === uid)) out.push({ type, object });
      }
    }
    return out;
  }

  protected handle(e: StoreEvent): void {
    const uid = str(meta(e.object)['uid']) ?? '';
    if (e.type === 'DELETED') {
      this.collect(uid);
      this.recheckOwners(e.object);
      return;
    }
    const m = meta(e.object);
    if (m['deletionTimestamp'] === undefined) return;
    const fins = strList(m['finalizers']);
    const t = this.writer.registry.all().find((x) => `${x.group}/${x.version}/${x.plural}` === e.typeKey);
    if (!t) return;
    if (fins.includes('orphan')) this.orphan(t, e.object, uid);
    else if (fins.includes('foregroundDeletion')) this.foreground(t, e.object, uid);
  }

  /** A dependent went away: an owner waiting in foreground deletion may now be done. */
  private recheckOwners(dependent: JsonObject): void {
    const wanted = new Set(owners(dependent).map((r) => str(r['uid']) ?? ''));
    for (const t of this.writer.registry.all()) {
      for (const o of this.writer.store.all(t)) {
        const m = meta(o);
        if (wanted.has(str(m['uid']) ?? '') && strList(m['finalizers']).includes('foregroundDeletion')) {
          this.foreground(t, o, str(m['uid']) ?? '');
        }
      }
    }
  }

  private collect(uid: string): void {
    const live = this.liveUids();
    for (const d of this.dependentsOf(uid)) {
      const m = meta(d.object);
      const ns = str(m['namespace']);
      const name = str(m['name']) ?? '';
      if (owners(d.object).some((r) => live.has(str(r['uid']) ?? ''))) {
        this.writer.mutate({ type: d.type, namespace: ns, name }, (c) => {
          meta(c)['ownerReferences'] = owners(c).filter((r) => live.has(str(r['uid']) ?? ''));
          return c;
        });
      } else if (m['deletionTimestamp'] === undefined) {
        this.writer.delete(d.type, ns, name, { propagationPolicy: 'Background' });
      }
    }
  }

  private removeFinalizer(t: ResourceType, o: JsonObject, f: string): void {
    const m = meta(o);
    this.writer.mutate({ type: t, namespace: str(m['namespace']), name: str(m['name']) ?? '' }, (c) => {
      meta(c)['finalizers'] = strList(meta(c)['finalizers']).filter((x) => x !== f);
      return c;
    });
  }

  private orphan(t: ResourceType, owner: JsonObject, uid: string): void {
    for (const d of this.dependentsOf(uid)) {
      const m = meta(d.object);
      this.writer.mutate(
        { type: d.type, namespace: str(m['namespace']), name: str(m['name']) ?? '' },
        (c) => {
          meta(c)['ownerReferences'] = owners(c).filter((r) => r['uid'] !== uid);
          return c;
        },
      );
    }
    this.removeFinalizer(t, owner, 'orphan');
  }

  private foreground(t: ResourceType, owner: JsonObject, uid: string): void {
    const deps = this.dependentsOf(uid);
    for (const d of deps) {
      const m = meta(d.object);
      if (m['deletionTimestamp'] === undefined)
        this.writer.delete(d.type, str(m['namespace']), str(m['name']) ?? '', {
          propagationPolicy: 'Foreground',
        });
    }
    if (this.dependentsOf(uid).length === 0) this.removeFinalizer(t, owner, 'foregroundDeletion');
  }
}
