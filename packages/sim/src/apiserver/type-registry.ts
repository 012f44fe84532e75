import { BUILTIN_TYPES } from './builtin-types.js';
import { groupVersion, typeKey, type ResourceType } from './resource-type.js';

/** The resource types currently served: the built-ins plus one per served version of each CRD. */
export class TypeRegistry {
  private readonly types = new Map<string, ResourceType>();
  private readonly changeListeners = new Set<() => void>();
  /** Bumped on every change, so hashed discovery/OpenAPI URLs change with it. */
  generation = 0;

  constructor(types: readonly ResourceType[] = BUILTIN_TYPES) {
    for (const t of types) this.types.set(typeKey(t), t);
  }

  register(t: ResourceType): void {
    this.types.set(typeKey(t), t);
    this.changed();
  }

  unregister(t: ResourceType): void {
    this.types.delete(typeKey(t));
    this.changed();
  }

  private changed(): void {
    this.generation += 1;
    for (const l of this.changeListeners) l();
  }

  onChange(l: () => void): void {
    this.changeListeners.add(l);
  }

  find(group: string, version: string, plural: string): ResourceType | undefined {
    return this.types.get(`${group}/${version}/${plural}`);
  }

  /** The type for an apiVersion/kind pair. */
  byKind(apiVersion: string, kind: string): ResourceType | undefined {
    return this.all().find((t) => groupVersion(t) === apiVersion && t.kind === kind);
  }

  mustFind(group: string, version: string, plural: string): ResourceType {
    const t = this.find(group, version, plural);
    if (!t) throw new Error(`resource type ${plural}.${group}/${version} is not registered`);
    return t;
  }

  all(): ResourceType[] {
    return [...this.types.values()];
  }

  /** group -> versions served, the core group under ''. */
  groups(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const t of this.types.values()) {
      const vs = out.get(t.group) ?? [];
      if (!vs.includes(t.version)) vs.push(t.version);
      out.set(t.group, vs);
    }
    return out;
  }
}
