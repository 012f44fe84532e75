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

function pruneObject(value: JsonObject, schema: JsonSchema, embedded: boolean): JsonObject {
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const props = schema.properties;
  const extra = schema.additionalProperties;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    const sub = props?.[k] ?? (isObject(extra) ? extra : undefined);
    if (sub !== undefined) out[k] = pruneValue(v, sub);
    else if (preserve || extra === true || (embedded && ['apiVersion', 'kind', 'metadata'].includes(k))) {
      out[k] = v;
    }
  }
  return out;
}

function pruneValue(value: Json, schema: JsonSchema): Json {
  if (Array.isArray(value)) {
    const items = schema.items;
    return items === undefined ? value : value.map((v) => pruneValue(v, items));
  }
  if (isObject(value)) {
    return pruneObject(value, schema, schema['x-kubernetes-embedded-resource'] === true);
  }
  return value;
}

/**
 * Structural pruning as the apiserver does for custom resources: fields the schema does not declare are
 * dropped, unless a node sets `x-kubernetes-preserve-unknown-fields: true`. `apiVersion`, `kind` and
 * `metadata` at the root are always kept.
 */
export function pruneCustomResource(obj: JsonObject, schema: JsonSchema): JsonObject {
  const root = pruneObject(obj, schema, true);
  for (const k of ['apiVersion', 'kind', 'metadata']) {
    const v = obj[k];
    if (v !== undefined) root[k] = v;
  }
  return root;
}
