import type { KubeObject } from './watch-port.js';

export type ObjectHandler<T> = (obj: T, old?: T) => void;

export interface CacheHandlers<T> {
  add: ObjectHandler<T>[];
  update: ObjectHandler<T>[];
  delete: ObjectHandler<T>[];
}

export function objectKey(obj: KubeObject): string {
  const ns = obj.metadata?.namespace ?? '';
  return `${ns}/${obj.metadata?.name ?? ''}`;
}

/** The informer's store: objects by `namespace/name`, emitting add/update/delete as it changes. */
export class ObjectCache<T extends KubeObject> {
  private readonly objects = new Map<string, T>();
  private changes = 0;

  constructor(private readonly handlers: CacheHandlers<T>) {}

  get(name: string, namespace?: string): T | undefined {
    return this.objects.get(`${namespace ?? ''}/${name}`);
  }

  /** Grows on every add, update and delete: an index built from `list()` is current while it is unchanged. */
  get revision(): number {
    return this.changes;
  }

  list(namespace?: string): T[] {
    const all = [...this.objects.values()];
    return namespace === undefined ? all : all.filter((o) => (o.metadata?.namespace ?? '') === namespace);
  }

  upsert(obj: T): void {
    const key = objectKey(obj);
    const old = this.objects.get(key);
    this.objects.set(key, obj);
    if (!old) this.emit('add', obj);
    else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion) this.emit('update', obj, old);
  }

  remove(obj: T): void {
    const key = objectKey(obj);
    const old = this.objects.get(key);
    if (!old) return;
    this.objects.delete(key);
    this.emit('delete', obj);
  }

  /** Makes the cache equal to a fresh list: adds, updates, and deletes what the list no longer has. */
  replace(items: readonly T[]): void {
    const seen = new Set(items.map(objectKey));
    for (const [key, old] of [...this.objects]) {
      if (!seen.has(key)) {
        this.objects.delete(key);
        this.emit('delete', old);
      }
    }
    for (const item of items) this.upsert(item);
  }

  private emit(kind: keyof CacheHandlers<T>, obj: T, old?: T): void {
    this.changes++;
    for (const h of this.handlers[kind]) h(obj, old);
  }
}
