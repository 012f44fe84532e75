import type { KubeObject } from './watch-port.js';

/**
 * The object without `metadata.managedFields`, which the operator never reads and which on a real cluster
 * is often the larger part of a Node (every field each manager set, with timestamps). client-go's
 * informers are commonly given the same transform (`cache.TransformStripManagedFields`).
 */
export function withoutManagedFields<T extends KubeObject>(obj: T): T {
  const meta = obj.metadata as (KubeObject['metadata'] & { managedFields?: unknown }) | undefined;
  if (meta?.managedFields === undefined) return obj;
  const { managedFields: _dropped, ...rest } = meta;
  return { ...obj, metadata: rest };
}
