import type { StoreEvent } from '../apiserver/event-log.js';
import { isObject, meta, str, strList } from '../apiserver/json.js';
import type { ObjectWriter } from '../apiserver/object-writer.js';
import { eventLoop, type ErrorSink, type SimController } from './controller.js';

/**
 * Namespace finalization: a terminating namespace has every namespaced object in it deleted; once none
 * remain (finalizers on them keep it waiting) the `kubernetes` finalizer is removed through /finalize and
 * the namespace disappears.
 */
export class NamespaceController implements SimController {
  readonly name = 'namespace';
  private readonly loop;

  constructor(
    private readonly writer: ObjectWriter,
    onError: ErrorSink,
  ) {
    this.loop = eventLoop(writer, this.name, onError, (e) => this.handle(e));
  }

  start(): void {
    this.loop.start();
  }

  stop(): void {
    this.loop.stop();
  }

  private handle(e: StoreEvent): void {
    const nsName = e.typeKey === '/v1/namespaces' ? str(meta(e.object)['name']) : str(meta(e.object)['namespace']);
    if (nsName === undefined || (e.typeKey === '/v1/namespaces' && e.type === 'DELETED')) return;
    const nsType = this.writer.registry.mustFind('', 'v1', 'namespaces');
    const ns = this.writer.store.get(nsType, undefined, nsName);
    if (!ns || meta(ns)['deletionTimestamp'] === undefined) return;
    let remaining = 0;
    for (const t of this.writer.registry.all().filter((x) => x.namespaced)) {
      for (const o of this.writer.store.all(t).filter((x) => str(meta(x)['namespace']) === nsName)) {
        remaining += 1;
        if (meta(o)['deletionTimestamp'] === undefined) this.writer.delete(t, nsName, str(meta(o)['name']) ?? '', { propagationPolicy: 'Background' });
      }
    }
    if (remaining > 0 && this.stillHasContent(nsName)) return;
    const spec = isObject(ns['spec']) ? ns['spec'] : {};
    if (!strList(spec['finalizers']).includes('kubernetes')) return;
    ns['spec'] = { ...spec, finalizers: strList(spec['finalizers']).filter((f) => f !== 'kubernetes') };
    this.writer.update(nsType, undefined, nsName, ns, { subresource: 'finalize' });
  }

  private stillHasContent(nsName: string): boolean {
    return this.writer.registry
      .all()
      .filter((x) => x.namespaced)
      .some((t) => this.writer.store.all(t).some((x) => str(meta(x)['namespace']) === nsName));
  }
}
