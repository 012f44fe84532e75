import { terminalSafe } from './terminal-safe.js';

/**
 * Renders rows as a kubectl-style table: upper-case headers, columns padded by three spaces. Cells are
 * escaped (terminalSafe): what a table shows often comes from objects anyone with write access edited.
 */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [headers.map((h) => h.toUpperCase()), ...rows.map((r) => r.map(terminalSafe))];
  const widths = headers.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  return all
    .map((r) =>
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join('   ')
        .trimEnd(),
    )
    .join('\n');
}
