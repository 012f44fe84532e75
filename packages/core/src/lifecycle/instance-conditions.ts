import type { InstanceCondition, InstanceStatus, InstanceStatusStore } from './instance-status.js';

/** A condition as its reporter states it; `since` is kept from the condition it replaces. */
export type ConditionReport = Omit<InstanceCondition, 'since'>;

/**
 * Sets one condition on an instance's status (replacing the one of its type). Nothing is written when the
 * instance has no status or already carries the same condition; returns whether the status changed.
 */
export async function setCondition(
  store: InstanceStatusStore,
  key: string,
  report: ConditionReport,
  now: Date,
): Promise<boolean> {
  const current = store.get(key);
  if (current === undefined) return false;
  const existing = current.conditions?.find((c) => c.type === report.type);
  if (existing?.reason === report.reason && existing.message === report.message) return false;
  const condition: InstanceCondition = { ...report, since: existing?.since ?? now.toISOString() };
  const others = (current.conditions ?? []).filter((c) => c.type !== report.type);
  await store.set({ ...current, conditions: [...others, condition] });
  return true;
}

/** Removes the condition of `type` from an instance's status, if it has one; returns whether it had. */
export async function clearCondition(
  store: InstanceStatusStore,
  key: string,
  type: string,
): Promise<boolean> {
  const current = store.get(key);
  if (current?.conditions?.some((c) => c.type === type) !== true) return false;
  const left = current.conditions.filter((c) => c.type !== type);
  const { conditions: _all, ...rest } = current;
  await store.set(left.length === 0 ? rest : { ...rest, conditions: left });
  return true;
}

/**
 * Records when a failed instance is tried again (the work queue's backoff): only while its status says
 * `Failed`, since a status in another phase is an attempt already under way.
 */
export async function noteNextRetry(
  store: InstanceStatusStore,
  key: string,
  at: Date,
): Promise<InstanceStatus | undefined> {
  const current = store.get(key);
  if (current?.phase !== 'Failed') return undefined;
  const next = { ...current, nextRetry: at.toISOString() };
  await store.set(next);
  return next;
}
