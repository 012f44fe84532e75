import type { JsonObject } from '../apiserver/json.js';

/** Tiny builders for structural OpenAPI v3 schemas and CRD objects. */
export type Schema = JsonObject;

export const str: Schema = { type: 'string' };
export const int: Schema = { type: 'integer' };
export const bool: Schema = { type: 'boolean' };
/** An open object whose unknown fields are kept (where upstream's schema is open or not modelled here). */
export const open: Schema = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
export const strMap: Schema = { type: 'object', additionalProperties: { type: 'string' } };
export const intOrString: Schema = { 'x-kubernetes-int-or-string': true };

export function obj(properties: Record<string, Schema>, extra: Schema = {}): Schema {
  return { type: 'object', properties, ...extra };
}

export function arr(items: Schema): Schema {
  return { type: 'array', items };
}

export const conditions: Schema = arr(
  obj({
    type: str,
    status: str,
    reason: str,
    message: str,
    lastTransitionTime: str,
    lastUpdateTime: str,
    lastHeartbeatTime: str,
    observedGeneration: int,
    severity: str,
  }),
);

export interface CrdInput {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly namespaced: boolean;
  readonly spec: Schema;
  /** undefined: no status field; a schema: status as a subresource. */
  readonly status?: Schema;
  readonly shortNames?: readonly string[];
  /** subresources.scale: the spec/status replicas and label selector paths. */
  readonly scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  /** additionalPrinterColumns: [name, jsonPath, type?, priority?]. */
  readonly columns?: readonly (readonly [string, string, string?, number?])[];
}

/** A v1 CustomResourceDefinition for the input. */
export function crd(i: CrdInput): JsonObject {
  const props: Record<string, Schema> = {
    apiVersion: str,
    kind: str,
    metadata: { type: 'object' },
    spec: i.spec,
  };
  if (i.status) props['status'] = i.status;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${i.plural}.${i.group}` },
    spec: {
      group: i.group,
      scope: i.namespaced ? 'Namespaced' : 'Cluster',
      names: {
        kind: i.kind,
        listKind: `${i.kind}List`,
        plural: i.plural,
        singular: i.kind.toLowerCase(),
        ...(i.shortNames ? { shortNames: [...i.shortNames] } : {}),
      },
      versions: [
        {
          name: i.version,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: obj(props) },
          ...(i.status || i.scale
            ? {
                subresources: {
                  ...(i.status ? { status: {} } : {}),
                  ...(i.scale ? { scale: { ...i.scale } } : {}),
                },
              }
            : {}),
          ...(i.columns
            ? {
                additionalPrinterColumns: i.columns.map(([name, jsonPath, type, priority]) => ({
                  name,
                  jsonPath,
                  type: type ?? 'string',
                  ...(priority !== undefined ? { priority } : {}),
                })),
              }
            : {}),
        },
      ],
    },
  };
}
