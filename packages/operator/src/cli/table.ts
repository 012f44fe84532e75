/** Renders rows as a kubectl-style table: upper-case headers, columns padded by three spaces. */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [headers.map((h) => h.toUpperCase()), ...rows];
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
