import { builtinModel } from './builtin-models.js';
import { DecodeError } from './decode-error.js';
import { isObject, type JsonObject } from './json.js';
import type { ResourceType } from './resource-type.js';
import { sortedKeys } from './sorted-keys.js';
import { ApiError, errors } from './status.js';
import { decodeTyped, type Decoded } from './typed-decode.js';

/**
 * The decoding step of kube-apiserver's write handlers (k8s.io/apiserver pkg/endpoints/handlers): a body
 * that does not decode into the kind's Go type is 400 on create, update and apply (`transformDecodeError`:
 * "<Kind> in version "<v>" cannot be handled as a <Kind>: <error>") and 422 on JSON and merge patches
 * (patch.go `applyPatchToCurrentObject`: `NewInvalid(GroupKind{}, "", patch: Invalid value: <patched
 * object>: <error>)`). Custom resources are not typed here (their schema is applied by pruning).
 */
export type DecodeStage = 'body' | 'patch';

export function cannotHandle(t: ResourceType, message: string): ApiError {
  return errors.badRequest(
    `${t.kind} in version "${t.version}" cannot be handled as a ${t.kind}: ${message}`,
  );
}

/** The 422 a JSON or merge patch gets when its result does not decode. */
export function invalidPatch(patched: JsonObject, message: string): ApiError {
  const cause = `Invalid value: ${JSON.stringify(JSON.stringify(patched))}: ${message}`;
  return new ApiError(422, 'Invalid', ` "" is invalid: patch: ${cause}`, {
    name: '',
    group: '',
    kind: '',
    causes: [{ reason: 'FieldValueInvalid', message: cause, field: 'patch' }],
  });
}

/** Decodes a write's object as its kind's Go type; undefined for custom resources. */
export function decodeForWrite(
  t: ResourceType,
  obj: JsonObject,
  stage: DecodeStage = 'body',
): Decoded | undefined {
  const model = builtinModel(t);
  if (model === undefined) return undefined;
  try {
    return decodeTyped(model, obj);
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    throw stage === 'patch' ? invalidPatch(obj, e.message) : cannotHandle(t, e.message);
  }
}

/**
 * The object as the server stores and returns it: for built-ins decoded and re-encoded (maps sorted,
 * times normalized, unknown fields gone), for custom resources every key sorted.
 */
export function canonical(t: ResourceType, obj: JsonObject): JsonObject {
  const d = decodeForWrite(t, obj);
  if (d !== undefined) return d.object;
  const sorted = sortedKeys(obj);
  return isObject(sorted) ? sorted : obj;
}
