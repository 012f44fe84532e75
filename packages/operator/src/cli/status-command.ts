import { Command } from 'commander';
import { CoreV1Api, type V1Node } from '@kubernetes/client-node';
import {
  Annotations,
  LIFECYCLE_PHASE_ANNOTATION,
  STATUS_CONFIGMAP,
  describeApiError,
  isNotFound,
  rebootRequested,
  type InstanceCondition,
  type InstanceStatus,
} from '@wmco/core/internal';
import type { CliContext } from './cli-context.js';
import { kubeConfigFrom, namespaceFrom, withKubeFlags, type KubeFlags } from './kube-flags.js';
import { parseOutputFormat, renderStructured } from './output-format.js';
import { outputOption } from './output-option.js';
import { renderTable } from './table.js';
import { terminalSafe } from './terminal-safe.js';

/** Seconds as kubectl prints ages: `45s`, `12m`, `3h`. */
function duration(s: number): string {
  return s < 120 ? `${s}s` : s < 7200 ? `${Math.round(s / 60)}m` : `${Math.round(s / 3600)}h`;
}

function age(since: string): string {
  const t = Date.parse(since);
  if (!Number.isFinite(t)) return '-';
  return duration(Math.max(0, Math.round((Date.now() - t) / 1000)));
}

/** What the Node says about an instance: the operator version it carries and its lifecycle step. */
export interface NodeFacts {
  readonly version: string;
  readonly maintenance: string;
}

/** Windows nodes by name: `version` annotation and `lifecycle-phase` (upgrade or reboot step), or `-`. */
export function nodeFacts(nodes: readonly V1Node[]): Map<string, NodeFacts> {
  return new Map(
    nodes.map((n) => {
      const a = n.metadata?.annotations ?? {};
      const maintenance = a[LIFECYCLE_PHASE_ANNOTATION] ?? (rebootRequested(n) ? 'RebootRequested' : '-');
      return [n.metadata?.name ?? '', { version: a[Annotations.version] ?? '-', maintenance }];
    }),
  );
}

/** In how long a time comes, as `age` prints it (`now` once it passed). */
function inTime(at: string): string {
  const t = Date.parse(at);
  if (!Number.isFinite(t)) return '-';
  return t <= Date.now() ? 'now' : duration(Math.round((t - Date.now()) / 1000));
}

/** The last error, with the count of failed attempts and the next retry while the instance retries. */
function lastErrorCell(s: InstanceStatus): string {
  if (s.lastError === undefined) return terminalSafe(undefined);
  const notes = [
    ...(s.failedAttempts === undefined ? [] : [`failed attempts: ${terminalSafe(s.failedAttempts)}`]),
    ...(s.nextRetry === undefined ? [] : [`next retry in ${inTime(terminalSafe(s.nextRetry))}`]),
  ];
  return `${terminalSafe(s.lastError)}${notes.length === 0 ? '' : ` (${notes.join(', ')})`}`;
}

/** Each condition's type (the table) or type and message (wide), or `-`. */
function conditionsCell(s: InstanceStatus, wide: boolean): string {
  // Read from a ConfigMap anyone with edit rights may write: only objects count.
  const list: readonly Partial<InstanceCondition>[] = Array.isArray(s.conditions)
    ? (s.conditions as unknown[]).filter(
        (c): c is Partial<InstanceCondition> => typeof c === 'object' && c !== null,
      )
    : [];
  if (list.length === 0) return '-';
  return list
    .map((c) => (wide ? `${terminalSafe(c.type)}: ${terminalSafe(c.message)}` : terminalSafe(c.type)))
    .join(wide ? '; ' : ',');
}

export function rows(
  statuses: readonly InstanceStatus[],
  nodes: ReadonlyMap<string, NodeFacts>,
  wide: boolean,
): string[][] {
  const unknown: NodeFacts = { version: '-', maintenance: '-' };
  return statuses.map((s) => {
    const n = nodes.get(s.node ?? '') ?? unknown;
    const r = [
      s.source === 'machine' ? 'Machine' : 'BYOH',
      s.source === 'machine' ? terminalSafe(s.machine ?? s.address) : s.address,
      s.node === undefined ? '-' : terminalSafe(s.node),
      s.phase,
      n.version,
      n.maintenance,
      age(s.since),
      s.joinSeconds === undefined ? '-' : `${terminalSafe(s.joinSeconds)}s`,
    ];
    if (wide)
      r.push(
        Object.entries(s.phaseSeconds)
          .map(([p, v]) => `${p}=${terminalSafe(v)}s`)
          .join(' ') || '-',
      );
    r.push(conditionsCell(s, wide), lastErrorCell(s));
    return r;
  });
}

/**
 * The statuses in the ConfigMap's data. Anyone who may edit it can write anything there: an entry that is
 * not a status object is reported (escaped) and skipped, and every field is shown as text.
 */
function parseStatuses(data: Record<string, string>, warn: (s: string) => void): InstanceStatus[] {
  const out: InstanceStatus[] = [];
  for (const [key, value] of Object.entries(data)) {
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
    out.push({
      ...(s as unknown as InstanceStatus),
      address: terminalSafe(s['address'] ?? key),
      phase: terminalSafe(s['phase']) as InstanceStatus['phase'],
      since: terminalSafe(s['since']),
      phaseSeconds:
        typeof s['phaseSeconds'] === 'object' && s['phaseSeconds'] !== null ? s['phaseSeconds'] : {},
    });
  }
  return out.sort((a, b) => a.address.localeCompare(b.address));
}

/** `wmco status`: each Windows instance's phase, timings and last error, from `windows-instances-status`. */
export function statusCommand(ctx: CliContext): Command {
  return withKubeFlags(new Command('status'))
    .description('Show each Windows instance: phase, node, timings and last error')
    .addOption(outputOption(['table', 'wide', 'json', 'yaml']))
    .action(async (flags: KubeFlags & { output?: string }) => {
      const format = parseOutputFormat(flags.output);
      const namespace = namespaceFrom(flags, ctx.env);
      const api = kubeConfigFrom(flags).makeApiClient(CoreV1Api);
      let data: Record<string, string> = {};
      try {
        data = (await api.readNamespacedConfigMap({ name: STATUS_CONFIGMAP, namespace })).data ?? {};
      } catch (err) {
        if (!isNotFound(err))
          throw new Error(`cannot read ${namespace}/${STATUS_CONFIGMAP}: ${describeApiError(err)}`, {
            cause: err,
          });
      }
      const statuses = parseStatuses(data, ctx.stderr);
      const nodes = nodeFacts(
        (await api.listNode({ labelSelector: 'kubernetes.io/os=windows' }).catch(() => ({ items: [] })))
          .items,
      );
      if (format === 'json' || format === 'yaml') {
        const instances = statuses.map((s) => ({ ...s, ...nodes.get(s.node ?? '') }));
        return ctx.stdout(renderStructured(format, { instances }));
      }
      if (statuses.length === 0) return ctx.stderr(`No Windows instances in ${namespace}.`);
      const headers = [
        'source',
        'host',
        'node',
        'phase',
        'version',
        'maintenance',
        'age',
        'join',
        ...(format === 'wide' ? ['phases'] : []),
        'conditions',
        'last error',
      ];
      ctx.stdout(renderTable(headers, rows(statuses, nodes, format === 'wide')));
    });
}
