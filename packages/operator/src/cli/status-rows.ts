import type { V1Node } from '@kubernetes/client-node';
import {
  Annotations,
  LIFECYCLE_PHASE_ANNOTATION,
  rebootRequested,
  type InstanceCondition,
  type InstanceStatus,
} from '@wmco/core/internal';
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

/**
 * The Nodes that claim the instance without the operator's record (`NodeClaimNotTrusted`), or `-`. The
 * status ConfigMap can be edited by anyone with edit rights there: only strings count, shown escaped.
 */
function untrustedCell(s: InstanceStatus): string {
  const list: readonly unknown[] = Array.isArray(s.untrustedNodes) ? s.untrustedNodes : [];
  const names = list.filter((n): n is string => typeof n === 'string').map((n) => terminalSafe(n));
  return names.length === 0 ? '-' : names.join(',');
}

/**
 * The SOURCE column: `Machine`, `BYOH` (a `windows-instances` entry, also when written before sources were
 * recorded), or an embedder's own source id as it wrote it (docs/embedding.md), shown escaped.
 */
function sourceCell(source: string | undefined): string {
  if (source === 'machine') return 'Machine';
  if (source === undefined || source === 'byoh' || source === '') return 'BYOH';
  return terminalSafe(source);
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
      sourceCell(s.source),
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
    r.push(untrustedCell(s), conditionsCell(s, wide), lastErrorCell(s));
    return r;
  });
}
