import type { InstanceCondition, InstanceStatus } from './instance-status.js';
import type { OperatorCondition } from './operator-conditions.js';

/** The key of `windows-instances-status` that holds the operator's own conditions, not an instance's. */
export const OPERATOR_STATUS_KEY = 'operator';

/**
 * The instance statuses in the data of `windows-instances-status` as an earlier run wrote them: every
 * value that is a JSON object with an `address` string equal to its key and a `phase` string. Anyone who
 * may edit the ConfigMap can write anything there; whatever else it holds (the operator's key included)
 * is skipped.
 */
export function storedStatuses(data: Readonly<Record<string, string>>): InstanceStatus[] {
  return Object.entries(data).flatMap(([key, value]) => {
    const status = key === OPERATOR_STATUS_KEY ? undefined : storedStatus(key, value);
    return status ? [status] : [];
  });
}

function storedStatus(key: string, value: string): InstanceStatus | undefined {
  const s = parsed(value);
  if (s?.['address'] !== key || typeof s['phase'] !== 'string' || typeof s['since'] !== 'string')
    return undefined;
  const timings = s['phaseSeconds'];
  const phaseSeconds =
    typeof timings === 'object' && timings !== null && !Array.isArray(timings) ? timings : {};
  const { conditions: _given, ...rest } = s as unknown as InstanceStatus;
  const conditions = instanceConditions(s['conditions']);
  return { ...rest, phaseSeconds, ...(conditions ? { conditions } : {}) };
}

function parsed(value: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(value);
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The operator's conditions as an earlier run wrote them under `operator` (none when unreadable). */
export function storedOperatorConditions(data: Readonly<Record<string, string>>): OperatorCondition[] {
  const raw = data[OPERATOR_STATUS_KEY];
  const conditions = raw === undefined ? undefined : parsed(raw)?.['conditions'];
  if (!Array.isArray(conditions)) return [];
  const text = ['type', 'status', 'reason', 'message', 'lastTransitionTime'];
  return conditions.filter(
    (c): c is OperatorCondition =>
      typeof c === 'object' &&
      c !== null &&
      text.every((k) => typeof (c as Record<string, unknown>)[k] === 'string'),
  );
}

/** Conditions that are objects with the fields an instance condition has; anything else is dropped. */
function instanceConditions(value: unknown): InstanceCondition[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const text = ['type', 'reason', 'message', 'since'];
  const ok = value.filter(
    (c): c is InstanceCondition =>
      typeof c === 'object' &&
      c !== null &&
      text.every((k) => typeof (c as Record<string, unknown>)[k] === 'string'),
  );
  return ok.length === 0 ? undefined : ok;
}
