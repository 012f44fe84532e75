import type { StoreEvent } from './event-log.js';
import { deepEqual, isObject, meta, str, strList, type JsonObject } from './json.js';
import type { JsonSchema } from './prune.js';
import type { ObjectWriter } from './object-writer.js';
import { typeKey, type ResourceType } from './resource-type.js';
import { subresourceFields } from './scale.js';
import { errors, type StatusCause } from './status.js';
import type { TypeHooks } from './type-hooks.js';

const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';
const CRD_GROUP = 'apiextensions.k8s.io';

function now(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, 'Z');
}

function obj(v: unknown): JsonObject {
  return isObject(v) ? v : {};
}

/** The version a CRD is served at: the storage version (one version per CRD is served, see README). */
function storageVersion(crd: JsonObject): JsonObject | undefined {
  const versions = Array.isArray(obj(crd['spec'])['versions'])
    ? (obj(crd['spec'])['versions'] as unknown[]).filter(isObject)
    : [];
  return (
    versions.find((v) => v['storage'] === true && v['served'] !== false) ??
    versions.find((v) => v['served'] !== false)
  );
}

function objects(v: unknown): JsonObject[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}

/** A version's openAPIV3Schema; a version without one keeps every field. */
function schemaOf(v: JsonObject): JsonSchema {
  const schema = obj(v['schema'])['openAPIV3Schema'];
  return isObject(schema) ? schema : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
}

export function crdToType(crd: JsonObject): ResourceType | undefined {
  const spec = obj(crd['spec']);
  const names = obj(spec['names']);
  const v = storageVersion(crd);
  if (!v) return undefined;
  const kind = str(names['kind']) ?? '';
  return {
    group: str(spec['group']) ?? '',
    version: str(v['name']) ?? '',
    kind,
    plural: str(names['plural']) ?? '',
    singular: str(names['singular']) ?? kind.toLowerCase(),
    namespaced: spec['scope'] === 'Namespaced',
    shortNames: strList(names['shortNames']),
    categories: strList(names['categories']),
    ...subresourceFields(v),
    fieldSelectors: [],
    builtin: false,
    generation: true,
    keepStatusOnCreate: false,
    schema: schemaOf(v),
    crdName: str(meta(crd)['name']) ?? '',
    printerColumns: objects(v['additionalPrinterColumns']),
  };
}

function required(value: unknown, field: string): StatusCause[] {
  return (str(value) ?? '') === ''
    ? [{ field, message: 'Required value', reason: 'FieldValueRequired' }]
    : [];
}

function validateCrd(crd: JsonObject): void {
  const spec = obj(crd['spec']);
  const names = obj(spec['names']);
  const group = str(spec['group']) ?? '';
  const plural = str(names['plural']) ?? '';
  const name = str(meta(crd)['name']) ?? '';
  const causes: StatusCause[] = [
    ...required(spec['group'], 'spec.group'),
    ...required(names['plural'], 'spec.names.plural'),
    ...required(names['kind'], 'spec.names.kind'),
  ];
  if (!['Namespaced', 'Cluster'].includes(str(spec['scope']) ?? '')) {
    causes.push({
      field: 'spec.scope',
      message: 'Unsupported value: supported values: "Cluster", "Namespaced"',
    });
  }
  if (!storageVersion(crd)) {
    causes.push({
      field: 'spec.versions',
      message: 'Invalid value: must have exactly one version marked as storage version',
    });
  }
  if (name !== `${plural}.${group}`) {
    causes.push({
      field: 'metadata.name',
      message: `Invalid value: "${name}": must be spec.names.plural+"."+spec.group`,
    });
  }
  if (causes.length > 0) throw errors.invalid('CustomResourceDefinition', CRD_GROUP, name, causes);
}

/** CRD admission: validation, the cleanup finalizer, and Established/NamesAccepted at once (row 7's delay is not copied). */
export const crdHooks: TypeHooks = {
  create(next) {
    validateCrd(next);
    const m = meta(next);
    m['finalizers'] = [...new Set([...strList(m['finalizers']), CLEANUP_FINALIZER])];
    const t = crdToType(next);
    const cond = (type: string, reason: string, message: string): JsonObject => ({
      type,
      status: 'True',
      lastTransitionTime: now(),
      reason,
      message,
    });
    next['status'] = {
      conditions: [
        cond('NamesAccepted', 'NoConflicts', 'no conflicts found'),
        cond('Established', 'InitialNamesAccepted', 'the initial names have been accepted'),
      ],
      acceptedNames: obj(obj(next['spec'])['names']),
      storedVersions: t ? [t.version] : [],
    };
  },
};

/**
 * Serves custom resources while their CRD exists: registers the type on ADDED, and on deletion marks the
 * CRD terminating (creates get 405, row 5), deletes every custom resource, and drops the cleanup finalizer
 * once none remain (custom resources with finalizers keep the CRD alive).
 */
export class CrdController {
  private readonly served = new Map<string, ResourceType>();

  constructor(private readonly writer: ObjectWriter) {}

  onEvent(e: StoreEvent): void {
    const crdType = this.writer.registry.mustFind(CRD_GROUP, 'v1', 'customresourcedefinitions');
    if (e.typeKey === typeKey(crdType)) this.onCrd(e, crdType);
    else this.onResource(e);
  }

  private onCrd(e: StoreEvent, crdType: ResourceType): void {
    const name = str(meta(e.object)['name']) ?? '';
    const old = this.served.get(name);
    if (e.type === 'DELETED') {
      if (old) {
        this.writer.registry.unregister(old);
        this.writer.store.dropType(old);
      }
      this.served.delete(name);
      this.writer.setCrdTerminating(name, false);
      return;
    }
    const t = crdToType(e.object);
    if (t && !deepEqual(t, old)) {
      // A changed CRD (schema, names, printer columns) is served as changed from now on.
      if (old && typeKey(old) !== typeKey(t)) this.writer.registry.unregister(old);
      this.writer.registry.register(t);
      this.served.set(name, t);
    }
    if (meta(e.object)['deletionTimestamp'] !== undefined && t) {
      this.writer.setCrdTerminating(name, true);
      setImmediate(() => this.cleanup(crdType, name));
    }
  }

  private onResource(e: StoreEvent): void {
    for (const [name, t] of this.served) {
      if (typeKey(t) === e.typeKey && e.type === 'DELETED') setImmediate(() => this.cleanup(undefined, name));
    }
  }

  private cleanup(crdTypeIn: ResourceType | undefined, name: string): void {
    const crdType = crdTypeIn ?? this.writer.registry.mustFind(CRD_GROUP, 'v1', 'customresourcedefinitions');
    const t = this.served.get(name);
    const crd = this.writer.store.get(crdType, undefined, name);
    if (!t || !crd || meta(crd)['deletionTimestamp'] === undefined) return;
    const remaining = this.writer.store.all(t);
    for (const o of remaining) {
      if (meta(o)['deletionTimestamp'] === undefined)
        this.writer.delete(t, str(meta(o)['namespace']), str(meta(o)['name']) ?? '');
    }
    if (this.writer.store.all(t).length > 0) return;
    this.writer.mutate({ type: crdType, namespace: undefined, name }, (c) => {
      const m = meta(c);
      m['finalizers'] = strList(m['finalizers']).filter((f) => f !== CLEANUP_FINALIZER);
      return c;
    });
  }
}
