import type { StoreEvent } from '../apiserver/event-log.js';
import { isObject, meta, str, strList, type JsonObject } from '../apiserver/json.js';
import { StoreEventController } from './controller.js';

/**
 * Namespace finalization: a terminating namespace has every namespaced object in it deleted; once none
 * remain (finalizers on them keep it waiting) the `kubernetes` finalizer is removed through /finalize and
 * the namespace disappears.
 */
export class NamespaceController extends StoreEventController {
  readonly name = 'namespace';

  /** The terminating namespace an event concerns, if any. */
  private terminating(e: StoreEvent): JsonObject | undefined {
    const isNs = e.typeKey === '/v1/namespaces';
    if (isNs && e.type === 'DELETED') return undefined;
    const nsName = str(meta(e.object)[isNs ? 'name' : 'namespace']);
    if (nsName === undefined) return undefined;
    const ns = this.writer.store.get(
      this.writer.registry.mustFind('', 'v1', 'namespaces'),
      undefined,
      nsName,
    );
    return ns && meta(ns)['deletionTimestamp'] !== undefined ? ns : undefined;
  }

  protected handle(e: StoreEvent): void {
    const ns = this.terminating(e);
    if (!ns) return;
    const nsName = str(meta(ns)['name']) ?? '';
    for (const t of this.writer.registry.all().filter((x) => x.namespaced)) {
      for (const o of this.writer.store.all(t).filter((x) => str(meta(x)['namespace']) === nsName)) {
        if (meta(o)['deletionTimestamp'] === undefined) {
          this.writer.delete(t, nsName, str(meta(o)['name']) ?? '', { propagationPolicy: 'Background' });
        }
      }
    }
    if (this.stillHasContent(nsName)) return;
    const spec = isObject(ns['spec']) ? ns['spec'] : {};
    if (!strList(spec['finalizers']).includes('kubernetes')) return;
    ns['spec'] = { ...spec, finalizers: strList(spec['finalizers']).filter((f) => f !== 'kubernetes') };
    const type = this.writer.registry.mustFind('', 'v1', 'namespaces');
    this.writer.update({ type, namespace: undefined, name: nsName, subresource: 'finalize' }, ns);
  }

  private stillHasContent(nsName: string): boolean {
    return this.writer.registry
      .all()
      .filter((x) => x.namespaced)
      .some((t) => this.writer.store.all(t).some((x) => str(meta(x)['namespace']) === nsName));
  }
}
