import type { CoreV1Api } from '@kubernetes/client-node';
import {
  OPERATOR_STATUS_KEY,
  STATUS_CONFIGMAP,
  describeApiError,
  isNotFound,
  type InstanceStatus,
  type OperatorStatus,
} from '@wmco/core/internal';
import { operatorLines, parseOperatorStatus } from './status-operator.js';
import { renderJsonPath } from './kube-jsonpath.js';
import { parseOutputFormat, renderStructured } from './output-format.js';
import { nodeFacts, rows, type NodeFacts } from './status-rows.js';
import { renderTable } from './table.js';
import { terminalSafe } from './terminal-safe.js';

/** What `wmco status` shows: the operator's own conditions, the instances' statuses and their Nodes' facts. */
export interface StatusView {
  readonly operator?: OperatorStatus;
  readonly statuses: readonly InstanceStatus[];
  readonly nodes: ReadonlyMap<string, NodeFacts>;
}

/** `untrustedNodes` as a list of (escaped) names; anything else in that field is dropped. */
function untrusted(value: unknown): Pick<InstanceStatus, 'untrustedNodes'> {
  if (!Array.isArray(value)) return {};
  const names = (value as unknown[]).filter((n): n is string => typeof n === 'string').map(terminalSafe);
  return names.length === 0 ? {} : { untrustedNodes: names };
}

/**
 * The statuses in the ConfigMap's data. Anyone who may edit it can write anything there: an entry that is
 * not a status object is reported (escaped) and skipped, and every field is shown as text.
 */
function parseStatuses(data: Record<string, string>, warn: (s: string) => void): InstanceStatus[] {
  const out: InstanceStatus[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (key === OPERATOR_STATUS_KEY) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      warn(`skipping entry "${terminalSafe(key)}": not a status object`);
      continue;
    }
    const s = parsed as Record<string, unknown>;
    const { untrustedNodes, ...rest } = s;
    out.push({
      ...(rest as unknown as InstanceStatus),
      ...untrusted(untrustedNodes),
      address: terminalSafe(s['address'] ?? key),
      phase: terminalSafe(s['phase']) as InstanceStatus['phase'],
      since: terminalSafe(s['since']),
      phaseSeconds:
        typeof s['phaseSeconds'] === 'object' && s['phaseSeconds'] !== null ? s['phaseSeconds'] : {},
    });
  }
  return out.sort((a, b) => a.address.localeCompare(b.address));
}

/** The statuses in `windows-instances-status` (none when it does not exist yet) and the Windows Nodes. */
export async function readStatusView(
  api: CoreV1Api,
  namespace: string,
  warn: (s: string) => void,
): Promise<StatusView> {
  let data: Record<string, string> = {};
  try {
    data = (await api.readNamespacedConfigMap({ name: STATUS_CONFIGMAP, namespace })).data ?? {};
  } catch (err) {
    if (!isNotFound(err))
      throw new Error(`cannot read ${namespace}/${STATUS_CONFIGMAP}: ${describeApiError(err)}`, {
        cause: err,
      });
  }
  const nodes = nodeFacts(
    (await api.listNode({ labelSelector: 'kubernetes.io/os=windows' }).catch(() => ({ items: [] }))).items,
  );
  const operator = parseOperatorStatus(data, warn);
  return { ...(operator ? { operator } : {}), statuses: parseStatuses(data, warn), nodes };
}

/** The instances whose node name, host address or Machine name is `name`. */
export function filterView(view: StatusView, name: string | undefined): StatusView {
  if (name === undefined) return view;
  const statuses = view.statuses.filter((s) => s.node === name || s.address === name || s.machine === name);
  return { ...view, statuses };
}

/** kubectl's `-o name`: `byoh/<address>` or `machine/<Machine name>`. */
export function instanceName(s: InstanceStatus): string {
  return s.source === 'machine' ? `machine/${terminalSafe(s.machine ?? s.address)}` : `byoh/${s.address}`;
}

/** Each instance with its Node's facts, as `-o json|yaml|jsonpath` print them. */
export function instanceObjects(view: StatusView): object[] {
  return view.statuses.map((s) => ({ ...s, ...view.nodes.get(s.node ?? '') }));
}

const TABLE_HEADERS = ['source', 'host', 'node', 'phase', 'version', 'maintenance', 'age', 'join'];

/** What `-o json|yaml|jsonpath` print: the operator's section (when written) and the instances. */
function structured(view: StatusView): object {
  return { ...(view.operator ? { operator: view.operator } : {}), instances: instanceObjects(view) };
}

/**
 * The view in the `-o` form asked for (`headers` false: the table without its header row, and without the
 * operator's lines above it).
 */
export function renderView(view: StatusView, output: string | undefined, headers: boolean): string {
  if (output === 'name') return view.statuses.map(instanceName).join('\n');
  if (output?.startsWith('jsonpath=') === true)
    return renderJsonPath(output.slice('jsonpath='.length), structured(view));
  const format = parseOutputFormat(output);
  if (format === 'json' || format === 'yaml') return renderStructured(format, structured(view));
  const wide = format === 'wide';
  const all = [...TABLE_HEADERS, ...(wide ? ['phases'] : []), 'untrusted nodes', 'conditions', 'last error'];
  const table = renderTable(all, rows(view.statuses, view.nodes, wide));
  if (!headers) return table.split('\n').slice(1).join('\n');
  const above = view.operator ? [...operatorLines(view.operator), ''] : [];
  return [...above, table].join('\n');
}

/** The operator's lines alone, for a table with no instance (`headers` false: none). */
export function operatorOnly(
  view: StatusView,
  output: string | undefined,
  headers: boolean,
): string | undefined {
  if (!view.operator || !headers || output !== undefined) return undefined;
  return operatorLines(view.operator).join('\n');
}
