import { fieldValue } from './selectors.js';
import { isObject, meta, str, strMap, type JsonObject } from './json.js';

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

export function age(timestamp: unknown, now = Date.now()): string {
  const t = Date.parse(str(timestamp) ?? '');
  if (Number.isNaN(t)) return '<unknown>';
  const s = Math.max(0, Math.floor((now - t) / 1000));
  for (const step of AGE_STEPS) {
    const out = step(s);
    if (out !== undefined) return out;
  }
  return '<unknown>';
}

const col = (name: string, cell: Column['cell'], priority = 0): Column => ({
  name,
  type: 'string',
  priority,
  cell,
});
export const NAME = col('Name', (o) => str(meta(o)['name']) ?? '');
export const AGE = col('Age', (o) => age(meta(o)['creationTimestamp']));

function conditions(o: JsonObject): JsonObject[] {
  const s = isObject(o['status']) ? o['status'] : {};
  return Array.isArray(s['conditions']) ? s['conditions'].filter(isObject) : [];
}

function nodeStatus(o: JsonObject): string {
  const ready = conditions(o).find((c) => c['type'] === 'Ready');
  const base =
    ready?.['status'] === 'True' ? 'Ready' : ready?.['status'] === 'False' ? 'NotReady' : 'Unknown';
  return isObject(o['spec']) && o['spec']['unschedulable'] === true ? `${base},SchedulingDisabled` : base;
}

function nodeRoles(o: JsonObject): string {
  const roles = Object.keys(strMap(meta(o)['labels']))
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length));
  return roles.length > 0 ? roles.sort().join(',') : '<none>';
}

function csrCondition(o: JsonObject): string {
  const types = conditions(o).map((c) => str(c['type']) ?? '');
  const issued = isObject(o['status']) && o['status']['certificate'] !== undefined;
  const all = [...types, ...(issued ? ['Issued'] : [])];
  return all.length > 0 ? all.join(',') : 'Pending';
}

function podReady(o: JsonObject): string {
  const spec = isObject(o['spec']) ? o['spec'] : {};
  const total = Array.isArray(spec['containers']) ? spec['containers'].length : 0;
  const ready = conditions(o).some((c) => c['type'] === 'Ready' && c['status'] === 'True') ? total : 0;
  return `${ready}/${total}`;
}

const dataCount = (o: JsonObject): number =>
  Object.keys(isObject(o['data']) ? o['data'] : {}).length +
  Object.keys(isObject(o['binaryData']) ? o['binaryData'] : {}).length;

/** Columns of the built-in kinds that have more than Name and Age (a subset of the real printers). */
export const BUILTIN_COLUMNS: Readonly<Record<string, readonly Column[]>> = {
  '/Node': [
    NAME,
    col('Status', nodeStatus),
    col('Roles', nodeRoles),
    AGE,
    col('Version', (o) => fieldValue(o, 'status.nodeInfo.kubeletVersion')),
    col('Internal-IP', (o) => fieldValue(o, 'status.addresses.0.address'), 1),
  ],
  '/Pod': [
    NAME,
    col('Ready', podReady),
    col('Status', (o) => fieldValue(o, 'status.phase')),
    col('Restarts', () => 0),
    AGE,
    col('Node', (o) => fieldValue(o, 'spec.nodeName') || '<none>', 1),
  ],
  '/Namespace': [NAME, col('Status', (o) => fieldValue(o, 'status.phase')), AGE],
  '/ConfigMap': [NAME, col('Data', dataCount), AGE],
  '/Secret': [NAME, col('Type', (o) => str(o['type']) ?? ''), col('Data', dataCount), AGE],
  'certificates.k8s.io/CertificateSigningRequest': [
    NAME,
    AGE,
    col('SignerName', (o) => fieldValue(o, 'spec.signerName')),
    col('Requestor', (o) => fieldValue(o, 'spec.username')),
    col('RequestedDuration', (o) => fieldValue(o, 'spec.expirationSeconds') || '<none>'),
    col('Condition', csrCondition),
  ],
};
