import { meta, str, strList, type JsonObject } from './json.js';
import type { ResourceType } from './resource-type.js';
import { errors } from './status.js';

export interface DeleteOptions {
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly propagationPolicy?: string;
  /** `dryRun: ["All"]` (body or query): every check runs, nothing is deleted. */
  readonly dryRun?: boolean;
}

function failed(t: ResourceType, name: string, what: string, values: readonly [string, unknown]): Error {
  const [wanted, actual] = values;
  return errors.conflict(
    t.plural,
    t.group,
    name,
    `Precondition failed: ${what} in precondition: ${wanted}, ${what} in object meta: ${str(actual) ?? ''}`,
  );
}

/** Delete preconditions (uid, resourceVersion) give 409 when they do not match. */
export function checkDeletePreconditions(
  t: ResourceType,
  old: JsonObject,
  name: string,
  opts: DeleteOptions,
): void {
  const om = meta(old);
  const pre = opts.preconditions ?? {};
  if (pre.uid !== undefined && pre.uid !== str(om['uid'])) throw failed(t, name, 'UID', [pre.uid, om['uid']]);
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== str(om['resourceVersion'])) {
    throw failed(t, name, 'ResourceVersion', [pre.resourceVersion, om['resourceVersion']]);
  }
}

/** Foreground and Orphan propagation work through the GC's finalizers on the deleted object. */
export function addPropagationFinalizer(next: JsonObject, policy: string | undefined): void {
  const f = policy === 'Foreground' ? 'foregroundDeletion' : policy === 'Orphan' ? 'orphan' : undefined;
  if (f === undefined) return;
  const m = meta(next);
  const fins = strList(m['finalizers']);
  if (!fins.includes(f)) m['finalizers'] = [...fins, f];
}

export function now(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, 'Z');
}

/** Marks an object as being deleted (deletionTimestamp; a Namespace also goes Terminating). */
export function markDeleting(t: ResourceType, next: JsonObject): void {
  const m = meta(next);
  m['deletionTimestamp'] ??= now();
  m['deletionGracePeriodSeconds'] ??= 0;
  if (t.kind === 'Namespace' && t.group === '') next['status'] = { phase: 'Terminating' };
}
