import { clone, meta, type JsonObject } from './json.js';
import { errors } from './status.js';

/**
 * `dryRun` as kube-apiserver validates it (ValidateCreateOptions and friends): absent, or exactly "All"
 * (repeatable). Anything else is 422 naming the options kind, e.g. `CreateOptions.meta.k8s.io "" is
 * invalid: dryRun: Unsupported value: "x": supported values: "All"`.
 */
export function isDryRun(q: URLSearchParams, optionsKind: string): boolean {
  const values = q.getAll('dryRun');
  const bad = values.find((v) => v !== 'All');
  if (bad !== undefined) {
    throw errors.invalid(optionsKind, 'meta.k8s.io', '', [
      {
        reason: 'FieldValueNotSupported',
        field: 'dryRun',
        message: `Unsupported value: "${bad}": supported values: "All"`,
      },
    ]);
  }
  return values.length > 0;
}

/**
 * What a dry-run write answers instead of storing (DryRunnableStorage in k8s.io/apiserver): the object
 * exactly as it would be stored, except that nothing is stored, no resourceVersion is stamped (a create
 * has none; an update keeps the current one) and no watch event is sent.
 */
export function dryRunResult(next: JsonObject, old: JsonObject | undefined): JsonObject {
  const out = clone(next);
  const m = meta(out);
  if (old === undefined) delete m['resourceVersion'];
  else m['resourceVersion'] = meta(old)['resourceVersion'] ?? null;
  return out;
}
