import { meta, str, type JsonObject } from './json.js';
import type { ObjectStore } from './object-store.js';
import type { ResourceType } from './resource-type.js';
import { ApiError, errors } from './status.js';
import type { TypeRegistry } from './type-registry.js';

/** A create's namespace must exist and not be terminating (403 as upstream's NamespaceLifecycle). */
export function checkNamespaceOpen(
  store: ObjectStore,
  registry: TypeRegistry,
  t: ResourceType,
  ns: string | undefined,
): void {
  if (!t.namespaced) return;
  if (ns === undefined || ns === '')
    throw errors.badRequest('the server could not find the requested resource');
  const n = store.get(registry.mustFind('', 'v1', 'namespaces'), undefined, ns);
  if (!n) throw errors.notFound('namespaces', '', ns);
  if (meta(n)['deletionTimestamp'] !== undefined) {
    const what = `${t.plural}${t.group ? `.${t.group}` : ''}`;
    throw new ApiError(
      403,
      'Forbidden',
      `${what} is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
    );
  }
}

/** Namespace from the URL; a different one in the body is 400, as upstream. */
export function placeNamespace(t: ResourceType, m: JsonObject, ns: string | undefined): void {
  if (!t.namespaced) {
    delete m['namespace'];
    return;
  }
  const bodyNs = str(m['namespace']) ?? '';
  if (bodyNs !== '' && ns !== undefined && bodyNs !== ns) {
    throw errors.badRequest(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  }
  m['namespace'] = ns ?? bodyNs;
}
