import { isObject, meta, str, strMap, type JsonObject } from './json.js';
import { matchesLabels, type LabelRequirement } from './selectors.js';

/** Health of the pods a PodDisruptionBudget covers, computed as the disruption controller does. */
export interface BudgetHealth {
  readonly expectedPods: number;
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
  readonly disruptionsAllowed: number;
}

/** A metav1.LabelSelector (matchLabels + matchExpressions) as requirements; undefined = matches nothing. */
export function labelSelectorRequirements(sel: unknown): LabelRequirement[] | undefined {
  if (!isObject(sel)) return undefined;
  const reqs: LabelRequirement[] = Object.entries(strMap(sel['matchLabels'])).map(([key, v]) => ({
    key,
    op: 'in' as const,
    values: [v],
  }));
  const exprs = Array.isArray(sel['matchExpressions']) ? sel['matchExpressions'].filter(isObject) : [];
  for (const e of exprs) {
    const op = (str(e['operator']) ?? '').toLowerCase();
    const values = Array.isArray(e['values'])
      ? e['values'].filter((x): x is string => typeof x === 'string')
      : [];
    const mapped = op === 'doesnotexist' ? 'notexists' : op;
    if (!['in', 'notin', 'exists', 'notexists'].includes(mapped)) return undefined;
    reqs.push({ key: str(e['key']) ?? '', op: mapped as LabelRequirement['op'], values });
  }
  return reqs;
}

export function podIsHealthy(pod: JsonObject): boolean {
  if (meta(pod)['deletionTimestamp'] !== undefined) return false;
  const status = isObject(pod['status']) ? pod['status'] : {};
  if (str(status['phase']) !== 'Running') return false;
  const conds = Array.isArray(status['conditions']) ? status['conditions'].filter(isObject) : [];
  return conds.some((c) => c['type'] === 'Ready' && c['status'] === 'True');
}

function resolve(value: unknown, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(str(value) ?? '');
  if (!m) return 0;
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

export function coveredPods(pdb: JsonObject, pods: readonly JsonObject[]): JsonObject[] {
  const spec = isObject(pdb['spec']) ? pdb['spec'] : {};
  const reqs = labelSelectorRequirements(spec['selector']);
  if (reqs === undefined) return [];
  const ns = str(meta(pdb)['namespace']);
  return pods.filter(
    (p) => str(meta(p)['namespace']) === ns && matchesLabels(reqs, strMap(meta(p)['labels'])),
  );
}

export function budgetHealth(pdb: JsonObject, pods: readonly JsonObject[]): BudgetHealth {
  const spec = isObject(pdb['spec']) ? pdb['spec'] : {};
  const covered = coveredPods(pdb, pods);
  const expected = covered.length;
  const healthy = covered.filter(podIsHealthy).length;
  const desired =
    spec['minAvailable'] !== undefined
      ? resolve(spec['minAvailable'], expected, true)
      : Math.max(0, expected - resolve(spec['maxUnavailable'] ?? 0, expected, true));
  return {
    expectedPods: expected,
    currentHealthy: healthy,
    desiredHealthy: desired,
    disruptionsAllowed: Math.max(0, healthy - desired),
  };
}
