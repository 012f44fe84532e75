import * as k8s from '@kubernetes/client-node';
import type { ResourceType } from './resource-type.js';

/**
 * The typed shape of the built-in kinds, from the models `@kubernetes/client-node` 2.0.1 generates from
 * Kubernetes' OpenAPI spec (release-1.36): each model's `attributeTypeMap` lists its JSON fields with a
 * TypeScript type (`string`, `number`, `boolean`, `Date`, `V1MicroTime`, `IntOrString`, `any`,
 * `Array<T>`, `{ [key: string]: T; }` for maps, or another model) and an OpenAPI format. Unlike the OpenAPI
 * document itself, the generator keeps `MicroTime` apart from `Time` (format `date-time-micro`).
 */
export interface FieldSpec {
  readonly baseName: string;
  readonly type: string;
  readonly format: string;
}

interface ModelClass {
  readonly attributeTypeMap?: readonly FieldSpec[];
}

/** Where a group's kinds' models are named differently from `V1<Kind>`. */
const MODEL_NAMES: Readonly<Record<string, string>> = {
  '/Event': 'CoreV1Event',
  'events.k8s.io/Event': 'EventsV1Event',
};

const models = k8s as unknown as Record<string, ModelClass | undefined>;
const fieldCache = new Map<string, ReadonlyMap<string, FieldSpec> | undefined>();

/** The fields of a model by JSON name, or undefined when the name is not a model. */
export function modelFields(model: string): ReadonlyMap<string, FieldSpec> | undefined {
  if (fieldCache.has(model)) return fieldCache.get(model);
  const list = models[model]?.attributeTypeMap;
  const fields = list === undefined ? undefined : new Map(list.map((f) => [f.baseName, f]));
  fieldCache.set(model, fields);
  return fields;
}

/** The client-node model of a built-in kind, or undefined for custom resources and unknown kinds. */
export function builtinModel(t: ResourceType): string | undefined {
  if (!t.builtin) return undefined;
  const name =
    MODEL_NAMES[`${t.group}/${t.kind}`] ??
    `${t.version.charAt(0).toUpperCase()}${t.version.slice(1)}${t.kind}`;
  return modelFields(name) === undefined ? undefined : name;
}

/** The Go type name a model stands for, as Go's JSON errors print it (`V1LeaseSpec` → `v1.LeaseSpec`). */
export function goTypeName(model: string): string {
  const m = /^(?:[A-Z][a-z]+)*?(V\d+(?:alpha\d+|beta\d+)?)([A-Z].*)$/.exec(model);
  return m ? `${(m[1] ?? '').toLowerCase()}.${m[2] ?? ''}` : model;
}

/** The bare Go struct name (`V1LeaseSpec` → `LeaseSpec`), as the `Go struct field` phrase uses it. */
export function goStructName(model: string): string {
  return goTypeName(model).replace(/^.*\./, '');
}
