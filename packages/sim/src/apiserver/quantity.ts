import { isObject, type Json, type JsonObject } from './json.js';
import { DecodeError } from './decode-error.js';

/**
 * `resource.Quantity` fields. OpenAPI (and so client-node) types them as plain strings, but Go's
 * `Quantity.UnmarshalJSON` (k8s.io/apimachinery/pkg/api/resource/quantity.go) also takes a JSON number and
 * refuses a string that is not a quantity. Listed by model and field: the quantity-typed fields of the
 * kinds the simulated server serves.
 */
const QUANTITY_FIELDS = new Set([
  'V1ResourceRequirements.limits',
  'V1ResourceRequirements.requests',
  'V1NodeStatus.capacity',
  'V1NodeStatus.allocatable',
  'V1PodSpec.overhead',
  'V1ContainerStatus.allocatedResources',
  'V1EmptyDirVolumeSource.sizeLimit',
]);

/** The regular expression ParseQuantity states in its error (quantity.go, `splitREString`). */
const QUANTITY = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;

export function isQuantityField(model: string, field: string): boolean {
  return QUANTITY_FIELDS.has(`${model}.${field}`);
}

function quantity(v: Json): string {
  const text = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : undefined;
  if (text === undefined || !QUANTITY.test(text)) {
    throw new DecodeError(
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
  }
  return text;
}

/** A quantity (or, for `map[ResourceName]Quantity`, each value) as the server keeps it. */
export function normalizeQuantity(v: Json, isMap: boolean): Json {
  if (!isMap) return quantity(v);
  if (!isObject(v))
    throw new DecodeError(`json: cannot unmarshal ${typeof v} into Go value of type v1.ResourceList`);
  const out: JsonObject = {};
  for (const k of Object.keys(v).sort()) out[k] = quantity(v[k] ?? null);
  return out;
}
