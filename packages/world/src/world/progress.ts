import type { InstanceStatus } from '@wmco/core/internal';

const COLUMNS = ['HOST', 'NODE', 'PHASE', 'JOIN', 'PS STARTS', 'BYTES SENT'];

const orDash = (v: string | number | undefined, f: (x: number) => string = String): string =>
  v === undefined ? '-' : typeof v === 'number' ? f(v) : v;

function row(address: string, s: InstanceStatus | 'Removed' | undefined): string[] {
  if (s === 'Removed') return [address, '-', 'Removed', '-', '-', '-'];
  if (!s) return [address, '-', 'Pending', '-', '-', '-'];
  return [
    address,
    orDash(s.node),
    s.phase,
    orDash(s.joinSeconds, (x) => `${x.toFixed(2)}s`),
    orDash(s.powershellStarts),
    orDash(s.bytesSent),
  ];
}

/** The summary table the demo prints at the end. */
export function summaryTable(statuses: readonly [string, InstanceStatus | 'Removed' | undefined][]): string {
  const rows = [COLUMNS, ...statuses.map(([a, s]) => row(a, s))];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** One line per phase change, as the demo streams them. */
export function progressLine(address: string, s: InstanceStatus, t0: number): string {
  const at = ((Date.now() - t0) / 1000).toFixed(1).padStart(6);
  const extra = s.phase === 'Failed' && s.lastError ? `: ${s.lastError}` : s.node ? ` (${s.node})` : '';
  return `[${at}s] ${address.padEnd(44)} ${s.phase}${extra}`;
}

/** A line about what the world itself did to a host (a staged attack and its outcome). */
export function worldLine(label: string, line: string, t0: number): string {
  const at = ((Date.now() - t0) / 1000).toFixed(1).padStart(6);
  return `[${at}s] ${label.padEnd(44)} ${line}`;
}
