import { isObject, str, type JsonObject } from './json.js';
import type { DeleteOptions } from './delete-rules.js';
import { errors } from './status.js';

function propagation(b: JsonObject, q: URLSearchParams): string | undefined {
  const orphan = b['orphanDependents'] === true || q.get('orphanDependents') === 'true';
  const policy = str(b['propagationPolicy']) ?? q.get('propagationPolicy') ?? (orphan ? 'Orphan' : undefined);
  if (policy !== undefined && !['Background', 'Foreground', 'Orphan'].includes(policy)) {
    throw errors.badRequest(
      `propagationPolicy: Unsupported value: "${policy}": supported values: "Background", "Foreground", "Orphan"`,
    );
  }
  return policy;
}

/** DeleteOptions from a body (JSON or protobuf) and the query string. */
export function deleteOptions(body: unknown, q: URLSearchParams): DeleteOptions {
  const b: JsonObject = isObject(body) ? body : {};
  const pre = isObject(b['preconditions']) ? b['preconditions'] : {};
  const policy = propagation(b, q);
  const preconditions = {
    ...(str(pre['uid']) ? { uid: str(pre['uid']) } : {}),
    ...(str(pre['resourceVersion']) ? { resourceVersion: str(pre['resourceVersion']) } : {}),
  } as DeleteOptions['preconditions'];
  return {
    ...(policy !== undefined ? { propagationPolicy: policy } : {}),
    ...(preconditions && Object.keys(preconditions).length > 0 ? { preconditions } : {}),
  };
}
