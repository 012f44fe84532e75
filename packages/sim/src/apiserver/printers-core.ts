import { meta, str, strMap, type JsonObject } from './json.js';
import { AGE, col, conditions, humanDuration, list, NAME, num, obj, type Column } from './table-cells.js';

// Columns and cells of kube-apiserver's printers (pkg/printers/internalversion/printers.go) for the core
// kinds the simulated server serves.

function nodeStatus(o: JsonObject): string {
  const ready = conditions(o).find((c) => c['type'] === 'Ready');
  const base =
    ready?.['status'] === 'True' ? 'Ready' : ready?.['status'] === 'False' ? 'NotReady' : 'Unknown';
  return obj(o, 'spec')['unschedulable'] === true ? `${base},SchedulingDisabled` : base;
}

function nodeRoles(o: JsonObject): string {
  const labels = strMap(meta(o)['labels']);
  const roles = Object.keys(labels)
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length));
  if (labels['kubernetes.io/role']) roles.push(labels['kubernetes.io/role']);
  return roles.length > 0 ? roles.sort().join(',') : '<none>';
}

function nodeAddress(type: string): (o: JsonObject) => string {
  return (o) => {
    const a = list(obj(o, 'status')['addresses']).find((x) => x['type'] === type);
    return str(a?.['address']) ?? '<none>';
  };
}

const nodeInfo =
  (field: string): Column['cell'] =>
  (o) =>
    str(obj(o, 'status', 'nodeInfo')[field]) || '<unknown>';

const NODE: readonly Column[] = [
  NAME,
  col('Status', nodeStatus),
  col('Roles', nodeRoles),
  AGE,
  col('Version', (o) => str(obj(o, 'status', 'nodeInfo')['kubeletVersion']) ?? ''),
  col('Internal-IP', nodeAddress('InternalIP'), 1),
  col('External-IP', nodeAddress('ExternalIP'), 1),
  col('OS-Image', nodeInfo('osImage'), 1),
  col('Kernel-Version', nodeInfo('kernelVersion'), 1),
  col('Container-Runtime', nodeInfo('containerRuntimeVersion'), 1),
];

function podStatus(o: JsonObject): string {
  if (meta(o)['deletionTimestamp'] !== undefined) return 'Terminating';
  const s = obj(o, 'status');
  return str(s['reason']) ?? str(s['phase']) ?? '';
}

/** `<ready>/<total>` readiness gates (their condition types True), `<none>` without gates. */
function readinessGates(o: JsonObject): string {
  const gates = list(obj(o, 'spec')['readinessGates']);
  if (gates.length === 0) return '<none>';
  const ready = gates.filter((g) =>
    conditions(o).some((c) => c['type'] === g['conditionType'] && c['status'] === 'True'),
  ).length;
  return `${ready}/${gates.length}`;
}

const statuses = (o: JsonObject): JsonObject[] => list(obj(o, 'status')['containerStatuses']);

const POD: readonly Column[] = [
  NAME,
  col('Ready', (o) => {
    const ready = statuses(o).filter((c) => c['ready'] === true).length;
    return `${ready}/${list(obj(o, 'spec')['containers']).length}`;
  }),
  col('Status', podStatus),
  col('Restarts', (o) => String(statuses(o).reduce((n, c) => n + num(c['restartCount']), 0))),
  AGE,
  col('IP', (o) => str(obj(o, 'status')['podIP']) || '<none>', 1),
  col('Node', (o) => str(obj(o, 'spec')['nodeName']) || '<none>', 1),
  col('Nominated Node', (o) => str(obj(o, 'status')['nominatedNodeName']) || '<none>', 1),
  col('Readiness Gates', readinessGates, 1),
];

const dataCount = (o: JsonObject): number =>
  Object.keys(obj(o, 'data')).length + Object.keys(obj(o, 'binaryData')).length;

/** extractCSRStatus: Denied over Approved over Pending, then Failed and Issued. */
function csrCondition(o: JsonObject): string {
  const types = new Set(conditions(o).map((c) => str(c['type'])));
  const head = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  const failed = types.has('Failed') ? ',Failed' : '';
  const issued = (str(obj(o, 'status')['certificate']) ?? '') !== '' ? ',Issued' : '';
  return `${head}${failed}${issued}`;
}

const CSR: readonly Column[] = [
  NAME,
  AGE,
  col('SignerName', (o) => str(obj(o, 'spec')['signerName']) || '<none>'),
  col('Requestor', (o) => str(obj(o, 'spec')['username']) ?? ''),
  col('RequestedDuration', (o) => {
    const s = obj(o, 'spec')['expirationSeconds'];
    return typeof s === 'number' ? humanDuration(s) : '<none>';
  }),
  col('Condition', csrCondition),
];

export const CORE_COLUMNS: Readonly<Record<string, readonly Column[]>> = {
  '/Node': NODE,
  '/Pod': POD,
  '/Namespace': [NAME, col('Status', (o) => str(obj(o, 'status')['phase']) ?? ''), AGE],
  '/ConfigMap': [NAME, col('Data', dataCount, 0, 'integer'), AGE],
  '/Secret': [NAME, col('Type', (o) => str(o['type']) ?? ''), col('Data', dataCount, 0, 'integer'), AGE],
  '/ServiceAccount': [NAME, col('Secrets', (o) => list(o['secrets']).length, 0, 'integer'), AGE],
  'certificates.k8s.io/CertificateSigningRequest': CSR,
  'coordination.k8s.io/Lease': [NAME, col('Holder', (o) => str(obj(o, 'spec')['holderIdentity']) ?? ''), AGE],
};
