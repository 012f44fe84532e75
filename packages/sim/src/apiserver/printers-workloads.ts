import { str, type Json, type JsonObject } from './json.js';
import {
  AGE,
  col,
  containerCells,
  formatLabels,
  formatSelector,
  list,
  NAME,
  num,
  obj,
  type Column,
} from './table-cells.js';

// kube-apiserver's printers (pkg/printers/internalversion/printers.go) for Services, Endpoints,
// Deployments, DaemonSets and PodDisruptionBudgets.

const podSpec = (o: JsonObject): JsonObject => obj(o, 'spec', 'template', 'spec');
const status = (o: JsonObject, field: string): number => num(obj(o, 'status')[field]);
const int = (name: string, cell: (o: JsonObject) => number): Column => col(name, cell, 0, 'integer');

const WIDE_TEMPLATE: readonly Column[] = [
  col('Containers', (o) => containerCells(podSpec(o)).names, 1),
  col('Images', (o) => containerCells(podSpec(o)).images, 1),
  col('Selector', (o) => formatSelector(obj(o, 'spec', 'selector')), 1),
];

const DEPLOYMENT: readonly Column[] = [
  NAME,
  col('Ready', (o) => {
    const r = obj(o, 'spec')['replicas'];
    return `${status(o, 'readyReplicas')}/${typeof r === 'number' ? r : 1}`;
  }),
  int('Up-to-date', (o) => status(o, 'updatedReplicas')),
  int('Available', (o) => status(o, 'availableReplicas')),
  AGE,
  ...WIDE_TEMPLATE,
];

const DAEMON_SET: readonly Column[] = [
  NAME,
  int('Desired', (o) => status(o, 'desiredNumberScheduled')),
  int('Current', (o) => status(o, 'currentNumberScheduled')),
  int('Ready', (o) => status(o, 'numberReady')),
  int('Up-to-date', (o) => status(o, 'updatedNumberScheduled')),
  int('Available', (o) => status(o, 'numberAvailable')),
  col('Node Selector', (o) => formatLabels(podSpec(o)['nodeSelector'])),
  AGE,
  ...WIDE_TEMPLATE,
];

/** An IntOrString (`2`, `50%`), `N/A` when unset. */
const intOrString = (v: Json | undefined): string => (typeof v === 'number' ? String(v) : (str(v) ?? 'N/A'));

const PDB: readonly Column[] = [
  NAME,
  col('Min Available', (o) => intOrString(obj(o, 'spec')['minAvailable'])),
  col('Max Unavailable', (o) => intOrString(obj(o, 'spec')['maxUnavailable'])),
  int('Allowed Disruptions', (o) => status(o, 'disruptionsAllowed')),
  AGE,
];

/** Service `type` and `ports[].protocol` as the server defaults them (ClusterIP, TCP). */
function servicePorts(o: JsonObject): string {
  const ports = list(obj(o, 'spec')['ports']).map((p) => {
    const proto = str(p['protocol']) ?? 'TCP';
    const node = num(p['nodePort']);
    return node > 0 ? `${num(p['port'])}:${node}/${proto}` : `${num(p['port'])}/${proto}`;
  });
  return ports.length > 0 ? ports.join(',') : '<none>';
}

function externalIp(o: JsonObject): string {
  const spec = obj(o, 'spec');
  const ips = Array.isArray(spec['externalIPs']) ? spec['externalIPs'].map(String) : [];
  if (spec['type'] === 'ExternalName') return str(spec['externalName']) ?? '';
  if (spec['type'] === 'LoadBalancer' && ips.length === 0) return '<pending>';
  return ips.length > 0 ? ips.join(',') : '<none>';
}

const SERVICE: readonly Column[] = [
  NAME,
  col('Type', (o) => str(obj(o, 'spec')['type']) ?? 'ClusterIP'),
  col('Cluster-IP', (o) => {
    const spec = obj(o, 'spec');
    const ips = Array.isArray(spec['clusterIPs']) ? spec['clusterIPs'] : [];
    return str(ips[0]) ?? (str(spec['clusterIP']) || '<none>');
  }),
  col('External-IP', externalIp),
  col('Port(s)', servicePorts),
  AGE,
  col('Selector', (o) => formatLabels(obj(o, 'spec')['selector']), 1),
];

/** formatEndpoints: up to three `ip:port` (or ip) entries, then `+ N more...`. */
function endpoints(o: JsonObject): string {
  const subsets = list(o['subsets']);
  if (subsets.length === 0) return '<none>';
  const all = subsets.flatMap((ss) => {
    const ips = list(ss['addresses']).map((a) => str(a['ip']) ?? '');
    const ports = list(ss['ports']);
    return ports.length === 0 ? ips : ports.flatMap((p) => ips.map((ip) => `${ip}:${num(p['port'])}`));
  });
  const shown = all.slice(0, 3).join(',');
  return all.length > 3 ? `${shown} + ${all.length - 3} more...` : shown;
}

export const WORKLOAD_COLUMNS: Readonly<Record<string, readonly Column[]>> = {
  'apps/Deployment': DEPLOYMENT,
  'apps/DaemonSet': DAEMON_SET,
  'policy/PodDisruptionBudget': PDB,
  '/Service': SERVICE,
  '/Endpoints': [NAME, col('Endpoints', endpoints), AGE],
};
