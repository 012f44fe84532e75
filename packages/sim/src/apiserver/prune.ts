import { isObject, type Json, type JsonObject } from './json.js';

/** The parts of an OpenAPI v3 structural schema that pruning looks at. */
export interface JsonSchema {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly items?: JsonSchema;
  readonly additionalProperties?: JsonSchema | boolean;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-embedded-resource'?: boolean;
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly [other: string]: unknown;
}

/** Where pruning is, and where it records the paths it dropped. */
interface Walk {
  readonly path: string;
  readonly dropped: string[];
}

const at = (w: Walk, key: string): Walk => ({
  path: w.path === '' ? key : `${w.path}.${key}`,
  dropped: w.dropped,
});

function keepsUnknown(schema: JsonSchema, key: string, embedded: boolean): boolean {
  if (schema['x-kubernetes-preserve-unknown-fields'] === true || schema.additionalProperties === true)
    return true;
  return embedded && ['apiVersion', 'kind', 'metadata'].includes(key);
}

function pruneObject(value: JsonObject, schema: JsonSchema, w: Walk): JsonObject {
  const embedded = schema['x-kubernetes-embedded-resource'] === true;
  const extra = schema.additionalProperties;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    const sub = schema.properties?.[k] ?? (isObject(extra) ? extra : undefined);
    if (sub !== undefined) out[k] = pruneValue(v, sub, at(w, k));
    else if (keepsUnknown(schema, k, embedded)) out[k] = v;
    else w.dropped.push(at(w, k).path);
  }
  return out;
}

function pruneValue(value: Json, schema: JsonSchema, w: Walk): Json {
  if (Array.isArray(value)) {
    const items = schema.items;
    return items === undefined
      ? value
      : value.map((v, i) => pruneValue(v, items, { path: `${w.path}[${i}]`, dropped: w.dropped }));
  }
  return isObject(value) ? pruneObject(value, schema, w) : value;
}

/**
 * Structural pruning as the apiserver does for custom resources: fields the schema does not declare are
 * dropped, unless a node sets `x-kubernetes-preserve-unknown-fields: true`. `apiVersion`, `kind` and
 * `metadata` at the root are always kept. `dropped` (when given) receives the dotted paths removed.
 */
export function pruneCustomResource(obj: JsonObject, schema: JsonSchema, dropped: string[] = []): JsonObject {
  const { apiVersion, kind, metadata, ...rest } = obj;
  const root = pruneObject(rest, schema, { path: '', dropped });
  return {
    ...(apiVersion !== undefined ? { apiVersion } : {}),
    ...(kind !== undefined ? { kind } : {}),
    ...(metadata !== undefined ? { metadata } : {}),
    ...root,
  };
}

/** The fields pruning would drop, for `fieldValidation=Strict|Warn`. */
export function unknownFields(obj: JsonObject, schema: JsonSchema): string[] {
  const dropped: string[] = [];
  pruneCustomResource(obj, schema, dropped);
  return dropped;
}
