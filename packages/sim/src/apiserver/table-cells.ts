import { isObject, meta, str, strList, strMap, type Json, type JsonObject } from './json.js';

/** One printed column: header, type, and how to compute the cell. */
export interface Column {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'date';
  readonly priority: number;
  readonly cell: (o: JsonObject) => string | number;
}

/** kubectl's short human durations (5s, 3m10s, 2h, 4d), after k8s.io/apimachinery duration.HumanDuration. */
const AGE_STEPS: readonly ((s: number) => string | undefined)[] = [
  (s) => (s < 120 ? `${s}s` : undefined),
  (s) => (s < 600 ? (s % 60 === 0 ? `${s / 60}m` : `${Math.floor(s / 60)}m${s % 60}s`) : undefined),
  (s) => (s < 3 * 3600 ? `${Math.floor(s / 60)}m` : undefined),
  (s) => {
    const m = Math.floor(s / 60);
    return s < 8 * 3600 ? (m % 60 === 0 ? `${m / 60}h` : `${Math.floor(m / 60)}h${m % 60}m`) : undefined;
  },
  (s) => (s < 48 * 3600 ? `${Math.floor(s / 3600)}h` : undefined),
  (s) => {
    const h = Math.floor(s / 3600);
    return s < 8 * 86400 ? (h % 24 === 0 ? `${h / 24}d` : `${Math.floor(h / 24)}d${h % 24}h`) : undefined;
  },
  (s) => (s < 730 * 86400 ? `${Math.floor(s / 86400)}d` : `${Math.floor(s / (365 * 86400))}y`),
];

/** HumanDuration of a number of seconds. */
export function humanDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  for (const step of AGE_STEPS) {
    const out = step(s);
    if (out !== undefined) return out;
  }
  return '<unknown>';
}

/** translateTimestampSince: the age of a timestamp, `<unknown>` when absent. */
export function age(timestamp: unknown, now = Date.now()): string {
  const t = Date.parse(str(timestamp) ?? '');
  if (Number.isNaN(t)) return '<unknown>';
  return humanDuration((now - t) / 1000);
}

export const col = (
  name: string,
  cell: Column['cell'],
  priority = 0,
  type: Column['type'] = 'string',
): Column => ({ name, type, priority, cell });

export const NAME = col('Name', (o) => str(meta(o)['name']) ?? '');
export const AGE = col('Age', (o) => age(meta(o)['creationTimestamp']));
/** The default table convertor's second column (RFC 3339, UTC), used by Roles and CRDs upstream. */
export const CREATED_AT = col(
  'Created At',
  (o) => {
    const t = Date.parse(str(meta(o)['creationTimestamp']) ?? '');
    return Number.isNaN(t) ? '<unknown>' : new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
  },
  0,
  'date',
);

/** `o[a][b]...` as an object ({} when absent). */
export function obj(o: unknown, ...path: string[]): JsonObject {
  let cur: unknown = o;
  for (const p of path) cur = isObject(cur) ? cur[p] : undefined;
  return isObject(cur) ? cur : {};
}

export function list(v: Json | undefined): JsonObject[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}

export function num(v: Json | undefined): number {
  return typeof v === 'number' ? v : 0;
}

export function conditions(o: JsonObject): JsonObject[] {
  return list(obj(o, 'status')['conditions']);
}

/** labels.FormatLabels: `k=v,k2=v2` sorted by key, `<none>` when empty. */
export function formatLabels(v: unknown): string {
  const m = strMap(v);
  const keys = Object.keys(m).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${m[k] ?? ''}`).join(',');
}

/** metav1.FormatLabelSelector for matchLabels (matchExpressions printed as `key op (values)`). */
export function formatSelector(sel: JsonObject): string {
  const labels = Object.entries(strMap(sel['matchLabels'])).map(([k, v]) => `${k}=${v}`);
  const exprs = list(sel['matchExpressions']).map((e) => {
    const values = strList(e['values']).join(',');
    return `${str(e['key']) ?? ''} ${(str(e['operator']) ?? '').toLowerCase()} (${values})`;
  });
  const all = [...labels, ...exprs];
  return all.length === 0 ? '<none>' : all.join(',');
}

/** layoutContainerCells: container names and images, comma separated. */
export function containerCells(podSpec: JsonObject): { names: string; images: string } {
  const cs = list(podSpec['containers']);
  return {
    names: cs.map((c) => str(c['name']) ?? '').join(','),
    images: cs.map((c) => str(c['image']) ?? '').join(','),
  };
}
