import { isObject, str, type JsonObject } from './json.js';
import type { DeleteOptions } from './delete-rules.js';
import { isDryRun } from './dry-run.js';
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

/** dryRun from the body (`["All"]`, what kubectl sends) or the query, validated as upstream. */
function dryRun(b: JsonObject, q: URLSearchParams): boolean {
  const fromBody = Array.isArray(b['dryRun'])
    ? b['dryRun'].map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))
    : [];
  const merged = new URLSearchParams(q);
  for (const v of fromBody) merged.append('dryRun', v);
  return isDryRun(merged, 'DeleteOptions');
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
    ...(dryRun(b, q) ? { dryRun: true } : {}),
    ...(policy !== undefined ? { propagationPolicy: policy } : {}),
    ...(preconditions && Object.keys(preconditions).length > 0 ? { preconditions } : {}),
  };
}
