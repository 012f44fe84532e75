import { randomUUID } from 'node:crypto';
import {
  addPropagationFinalizer,
  checkDeletePreconditions,
  markDeleting,
  now,
  type DeleteOptions,
} from './delete-rules.js';
import { canonical, decodeForWrite } from './decode-request.js';
import { dryRunResult } from './dry-run.js';
import { checkNamespaceOpen, placeNamespace } from './namespace-placement.js';
import type { EventType } from './event-log.js';
import { clone, deepEqual, isObject, meta, str, type Json, type JsonObject } from './json.js';
import type { ObjectStore } from './object-store.js';
import { pruneCustomResource } from './prune.js';
import { SYSTEM_USER, type RequestUser } from './request-user.js';
import { hasStatus, typeKey, type ResourceType } from './resource-type.js';
import { errors, statusBody, type StatusBody } from './status.js';
import type { TypeHooks, WriteContext } from './type-hooks.js';
import type { TypeRegistry } from './type-registry.js';
import { checkKind, checkUpdatePreconditions, mergeForUpdate } from './update-rules.js';
import { prepareMeta, removalBlockers, validateName } from './write-rules.js';

export type { DeleteOptions } from './delete-rules.js';

/** The object (or subresource) a write addresses, and who writes. */
export interface WriteTarget {
  readonly type: ResourceType;
  readonly namespace: string | undefined;
  readonly name: string;
  /** '' or undefined for the main resource. */
  readonly subresource?: string;
  readonly user?: RequestUser;
}

interface WriterState {
  readonly hooks: Map<string, TypeHooks[]>;
  readonly terminatingCrds: Set<string>;
}

/**
 * The write semantics of kube-apiserver's generic registry over an ObjectStore: create, update (with the
 * status split), delete with finalizers, and the namespace/CRD lifecycle checks.
 */
export class ObjectWriter {
  private dryRunTwin: ObjectWriter | undefined;

  constructor(
    readonly store: ObjectStore,
    readonly registry: TypeRegistry,
    /** Hooks and CRD state, shared with the dry-run twin. */
    private readonly shared: WriterState = { hooks: new Map(), terminatingCrds: new Set() },
    /** Validate and admit, store nothing (`dryRun=All`). */
    readonly dryRun = false,
  ) {}

  /** A writer with the same hooks and state that runs every check of a write and stores nothing. */
  forDryRun(): ObjectWriter {
    if (this.dryRun) return this;
    return (this.dryRunTwin ??= new ObjectWriter(this.store, this.registry, this.shared, true));
  }

  /** Stores (or, dry run, only shapes) the result of a write. */
  private commit(t: ResourceType, type: EventType, written: JsonObject, old?: JsonObject): JsonObject {
    // Stored and returned as the real server encodes it: maps sorted, times normalized.
    const next = canonical(t, written);
    return this.dryRun ? dryRunResult(next, old) : this.store.commit(t, type, next, old);
  }

  addHooks(t: ResourceType, h: TypeHooks): void {
    this.shared.hooks.set(typeKey(t), [...this.hooksFor(t), h]);
  }

  setCrdTerminating(crdName: string, on: boolean): void {
    if (on) this.shared.terminatingCrds.add(crdName);
    else this.shared.terminatingCrds.delete(crdName);
  }

  private hooksFor(t: ResourceType): TypeHooks[] {
    return this.shared.hooks.get(typeKey(t)) ?? [];
  }

  private mustGet(t: ResourceType, ns: string | undefined, name: string): JsonObject {
    const o = this.store.get(t, ns, name);
    if (!o) throw errors.notFound(t.plural, t.group, name);
    return o;
  }

  /** The object a create stores before server-set fields: pruned, placed, named, validated. */
  private prepareCreate(t: ResourceType, ns: string | undefined, body: JsonObject): JsonObject {
    if (t.crdName !== undefined && this.shared.terminatingCrds.has(t.crdName)) {
      throw errors.methodNotAllowed('create not allowed while custom resource definition is terminating');
    }
    checkKind(t, body);
    const typed = decodeForWrite(t, body)?.object ?? body;
    const next = t.schema ? pruneCustomResource(clone(typed), t.schema) : clone(typed);
    const m = meta(next);
    placeNamespace(t, m, ns);
    prepareMeta(m);
    validateName(t, m);
    checkNamespaceOpen(this.store, this.registry, t, str(m['namespace']));
    if (hasStatus(t) && !t.keepStatusOnCreate) delete next['status'];
    return next;
  }

  create(
    t: ResourceType,
    ns: string | undefined,
    body: JsonObject,
    user: RequestUser = SYSTEM_USER,
  ): JsonObject {
    const next = this.prepareCreate(t, ns, body);
    const m = meta(next);
    const name = str(m['name']) ?? '';
    m['uid'] = randomUUID();
    m['creationTimestamp'] = now();
    if (t.generation) m['generation'] = 1;
    const ctx: WriteContext = { type: t, user, subresource: '' };
    // Admission and validation come before storage: a refused create is 403/422 even when the name exists.
    for (const h of this.hooksFor(t)) h.create?.(next, ctx);
    if (this.store.get(t, str(m['namespace']), name)) throw errors.alreadyExists(t.plural, t.group, name);
    return this.commit(t, 'ADDED', next);
  }

  /** Full replacement (PUT) of the main resource or a subresource. */
  update(target: WriteTarget, body: JsonObject): JsonObject {
    const { type: t, namespace: ns, name } = target;
    const old = this.mustGet(t, ns, name);
    checkKind(t, body);
    checkUpdatePreconditions(t, old, body, name);
    const next = this.admitUpdate(target, old, body);
    // A no-op keeps the resourceVersion and sends no event (row 4).
    if (deepEqual(old, next)) return old;
    const gone = meta(next)['deletionTimestamp'] !== undefined && removalBlockers(t, next).length === 0;
    return this.commit(t, gone ? 'DELETED' : 'MODIFIED', next, old);
  }

  /** The decoded body merged over the stored object and admitted, as it would be stored. */
  private admitUpdate(target: WriteTarget, old: JsonObject, body: JsonObject): JsonObject {
    const t = target.type;
    const sub = target.subresource ?? '';
    const merged = mergeForUpdate(t, old, clone(decodeForWrite(t, body)?.object ?? body), sub);
    const ctx: WriteContext = { type: t, user: target.user ?? SYSTEM_USER, subresource: sub };
    for (const h of this.hooksFor(t)) h.update?.(old, merged, ctx);
    meta(merged)['resourceVersion'] = meta(old)['resourceVersion'] ?? null;
    // Compared as encoded: a time sent with fractions of a second equals the stored whole second.
    return canonical(t, merged);
  }

  /** Read-modify-write used by PATCH and by controllers. */
  mutate(target: WriteTarget, fn: (current: JsonObject) => Json): JsonObject {
    const current = this.mustGet(target.type, target.namespace, target.name);
    const patched = fn(clone(current));
    if (!isObject(patched)) throw errors.badRequest('the patched object is not a JSON object');
    const pm = meta(patched);
    pm['resourceVersion'] ??= meta(current)['resourceVersion'] ?? null;
    return this.update(target, patched);
  }

  delete(
    t: ResourceType,
    ns: string | undefined,
    name: string,
    opts: DeleteOptions = {},
  ): JsonObject | StatusBody {
    const old = this.mustGet(t, ns, name);
    checkDeletePreconditions(t, old, name, opts);
    const next = clone(old);
    addPropagationFinalizer(next, opts.propagationPolicy);
    if (removalBlockers(t, next).length === 0) {
      this.commit(t, 'DELETED', next, old);
      return statusBody(200, undefined, '', {
        name,
        group: t.group,
        kind: t.plural,
        uid: str(meta(old)['uid']) ?? '',
      });
    }
    markDeleting(t, next);
    if (deepEqual(old, next)) return old;
    // With finalizers: 200 with the object and a MODIFIED event carrying deletionTimestamp (row 5).
    return this.commit(t, 'MODIFIED', next, old);
  }
}
