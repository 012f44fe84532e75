import { randomUUID } from 'node:crypto';
import { clone, deepEqual, isObject, meta, str, strList, type Json, type JsonObject } from './json.js';
import { objectKey, type ObjectStore } from './object-store.js';
import { pruneCustomResource } from './prune.js';
import { SYSTEM_USER, type RequestUser } from './request-user.js';
import { groupVersion, hasStatus, typeKey, type ResourceType } from './resource-type.js';
import { ApiError, errors, statusBody, type StatusBody } from './status.js';
import type { TypeHooks, WriteContext } from './type-hooks.js';
import type { TypeRegistry } from './type-registry.js';
import { validateName, prepareMeta, removalBlockers, specPart } from './write-rules.js';

export interface DeleteOptions {
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly propagationPolicy?: string;
}

/**
 * The write semantics of kube-apiserver's generic registry over an ObjectStore: create, update (with the
 * status split), delete with finalizers, and the namespace/CRD lifecycle checks.
 */
export class ObjectWriter {
  private readonly hooks = new Map<string, TypeHooks[]>();
  private readonly terminatingCrds = new Set<string>();

  constructor(
    readonly store: ObjectStore,
    readonly registry: TypeRegistry,
  ) {}

  addHooks(t: ResourceType, h: TypeHooks): void {
    const k = typeKey(t);
    this.hooks.set(k, [...(this.hooks.get(k) ?? []), h]);
  }

  setCrdTerminating(crdName: string, on: boolean): void {
    if (on) this.terminatingCrds.add(crdName);
    else this.terminatingCrds.delete(crdName);
  }

  private hooksFor(t: ResourceType): TypeHooks[] {
    return this.hooks.get(typeKey(t)) ?? [];
  }

  private mustGet(t: ResourceType, ns: string | undefined, name: string): JsonObject {
    const o = this.store.get(t, ns, name);
    if (!o) throw errors.notFound(t.plural, t.group, name);
    return o;
  }

  private checkNamespace(t: ResourceType, ns: string | undefined): void {
    if (!t.namespaced) return;
    if (ns === undefined || ns === '') throw errors.badRequest('the server could not find the requested resource');
    const nsType = this.registry.mustFind('', 'v1', 'namespaces');
    const n = this.store.get(nsType, undefined, ns);
    if (!n) throw errors.notFound('namespaces', '', ns);
    if (meta(n)['deletionTimestamp'] !== undefined) {
      throw new ApiError(
        403,
        'Forbidden',
        `${t.plural}${t.group ? `.${t.group}` : ''} is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
      );
    }
  }

  create(t: ResourceType, ns: string | undefined, body: JsonObject, user: RequestUser = SYSTEM_USER): JsonObject {
    if (t.crdName !== undefined && this.terminatingCrds.has(t.crdName)) {
      throw errors.methodNotAllowed('create not allowed while custom resource definition is terminating');
    }
    this.checkKind(t, body);
    const next = t.schema ? pruneCustomResource(clone(body), t.schema) : clone(body);
    const m = meta(next);
    if (t.namespaced) {
      const bodyNs = str(m['namespace']);
      if (bodyNs !== undefined && bodyNs !== '' && ns !== undefined && bodyNs !== ns) {
        throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      m['namespace'] = ns ?? bodyNs ?? '';
    } else delete m['namespace'];
    prepareMeta(m);
    validateName(t, m);
    this.checkNamespace(t, str(m['namespace']));
    const name = str(m['name']) ?? '';
    if (this.store.get(t, str(m['namespace']), name)) throw errors.alreadyExists(t.plural, t.group, name);
    m['uid'] = randomUUID();
    m['creationTimestamp'] = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    if (t.generation) m['generation'] = 1;
    if (hasStatus(t) && !t.keepStatusOnCreate) delete next['status'];
    const ctx: WriteContext = { type: t, user, subresource: '' };
    for (const h of this.hooksFor(t)) h.create?.(next, ctx);
    return this.store.commit(t, 'ADDED', next);
  }

  private checkKind(t: ResourceType, body: JsonObject): void {
    const kind = str(body['kind']);
    const apiVersion = str(body['apiVersion']);
    if ((kind !== undefined && kind !== t.kind) || (apiVersion !== undefined && apiVersion !== groupVersion(t))) {
      throw errors.badRequest(
        `the API version in the data (${apiVersion ?? ''}) does not match the expected API version (${groupVersion(t)})`,
      );
    }
    body['kind'] = t.kind;
    body['apiVersion'] = groupVersion(t);
  }

  /** Full replacement (PUT) of the main resource or a subresource. */
  update(
    t: ResourceType,
    ns: string | undefined,
    name: string,
    body: JsonObject,
    opts: { readonly subresource?: string; readonly user?: RequestUser } = {},
  ): JsonObject {
    const old = this.mustGet(t, ns, name);
    this.checkKind(t, body);
    const bm = isObject(body['metadata']) ? body['metadata'] : {};
    const rv = str(bm['resourceVersion']);
    if (rv !== undefined && rv !== '' && rv !== str(meta(old)['resourceVersion'])) {
      throw errors.conflict(t.plural, t.group, name, 'the object has been modified; please apply your changes to the latest version and try again');
    }
    const bodyName = str(bm['name']);
    if (bodyName !== undefined && bodyName !== name) {
      throw errors.badRequest(`the name of the object (${bodyName}) does not match the name on the URL (${name})`);
    }
    const uid = str(bm['uid']);
    if (uid !== undefined && uid !== '' && uid !== str(meta(old)['uid'])) {
      throw errors.conflict(t.plural, t.group, name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${str(meta(old)['uid']) ?? ''}`);
    }
    const sub = opts.subresource ?? '';
    const next = this.merged(t, old, clone(body), sub);
    const ctx: WriteContext = { type: t, user: opts.user ?? SYSTEM_USER, subresource: sub };
    for (const h of this.hooksFor(t)) h.update?.(old, next, ctx);
    return this.commitUpdate(t, old, next);
  }

  /** The object to store: system metadata kept, spec or status taken from the right place. */
  private merged(t: ResourceType, old: JsonObject, body: JsonObject, sub: string): JsonObject {
    const incoming = t.schema ? pruneCustomResource(body, t.schema) : body;
    let next: JsonObject;
    if (sub === 'status') {
      next = { ...clone(old), status: incoming['status'] ?? null };
      if (next['status'] === null) delete next['status'];
      const m = meta(next);
      const im = meta(incoming);
      for (const k of ['labels', 'annotations']) if (im[k] !== undefined) m[k] = im[k] ?? null;
    } else {
      next = incoming;
      if (hasStatus(t) && sub === '') {
        if (old['status'] === undefined) delete next['status'];
        else next['status'] = clone(old['status']);
      }
    }
    const om = meta(old);
    const nm = meta(next);
    for (const k of ['name', 'namespace', 'uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation', 'resourceVersion', 'generateName']) {
      if (om[k] === undefined) delete nm[k];
      else nm[k] = om[k] ?? null;
    }
    if (om['deletionTimestamp'] !== undefined) {
      const added = strList(nm['finalizers']).filter((f) => !strList(om['finalizers']).includes(f));
      if (added.length > 0) {
        throw errors.invalid(t.kind, t.group, str(om['name']) ?? '', [
          { field: 'metadata.finalizers', message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"${added.join('", "')}"}`, reason: 'FieldValueForbidden' },
        ]);
      }
    }
    if (t.generation && !deepEqual(specPart(old), specPart(next))) {
      nm['generation'] = (typeof om['generation'] === 'number' ? om['generation'] : 0) + 1;
    }
    return next;
  }

  private commitUpdate(t: ResourceType, old: JsonObject, next: JsonObject): JsonObject {
    meta(next)['resourceVersion'] = meta(old)['resourceVersion'] ?? null;
    if (deepEqual(old, next)) return old;
    if (meta(next)['deletionTimestamp'] !== undefined && removalBlockers(t, next).length === 0) {
      return this.store.commit(t, 'DELETED', next, old);
    }
    return this.store.commit(t, 'MODIFIED', next, old);
  }

  /** Read-modify-write used by PATCH and by controllers. */
  mutate(
    t: ResourceType,
    ns: string | undefined,
    name: string,
    fn: (current: JsonObject) => Json,
    opts: { readonly subresource?: string; readonly user?: RequestUser } = {},
  ): JsonObject {
    const current = this.mustGet(t, ns, name);
    const patched = fn(clone(current));
    if (!isObject(patched)) throw errors.badRequest('the patched object is not a JSON object');
    const pm = meta(patched);
    if (pm['resourceVersion'] === undefined || pm['resourceVersion'] === null) pm['resourceVersion'] = meta(current)['resourceVersion'] ?? null;
    return this.update(t, ns, name, patched, opts);
  }

  delete(t: ResourceType, ns: string | undefined, name: string, opts: DeleteOptions = {}): JsonObject | StatusBody {
    const old = this.mustGet(t, ns, name);
    const om = meta(old);
    const pre = opts.preconditions;
    if (pre?.uid !== undefined && pre.uid !== str(om['uid'])) {
      throw errors.conflict(t.plural, t.group, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${str(om['uid']) ?? ''}`);
    }
    if (pre?.resourceVersion !== undefined && pre.resourceVersion !== str(om['resourceVersion'])) {
      throw errors.conflict(t.plural, t.group, name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${str(om['resourceVersion']) ?? ''}`);
    }
    const next = clone(old);
    const nm = meta(next);
    const policy = opts.propagationPolicy;
    if (policy === 'Foreground' || policy === 'Orphan') {
      const f = policy === 'Foreground' ? 'foregroundDeletion' : 'orphan';
      const fins = strList(nm['finalizers']);
      if (!fins.includes(f)) nm['finalizers'] = [...fins, f];
    }
    if (removalBlockers(t, next).length === 0) {
      this.store.commit(t, 'DELETED', next, old);
      return statusBody(200, undefined, '', { name, group: t.group, kind: t.plural, uid: str(om['uid']) ?? '' });
    }
    if (om['deletionTimestamp'] !== undefined && deepEqual(old, next)) return old;
    nm['deletionTimestamp'] ??= new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    nm['deletionGracePeriodSeconds'] ??= 0;
    if (t.kind === 'Namespace' && t.group === '') next['status'] = { phase: 'Terminating' };
    return this.store.commit(t, 'MODIFIED', next, old);
  }

  exists(t: ResourceType, ns: string | undefined, name: string): boolean {
    return this.store.get(t, ns, name) !== undefined;
  }

  key(t: ResourceType, ns: string | undefined, name: string): string {
    return `${typeKey(t)}:${objectKey(ns, name)}`;
  }
}
