/** `maxUnavailable`: a number of Windows nodes, or a percentage of them. */
export type MaxUnavailable =
  { readonly kind: 'count'; readonly count: number } | { readonly kind: 'percent'; readonly percent: number };

export class MaxUnavailableError extends Error {
  constructor(raw: string) {
    super(
      `max-unavailable "${raw}" is not a whole number ≥ 1 or a percentage between 1% and 100% (e.g. 1, 2, 25%)`,
    );
    this.name = 'MaxUnavailableError';
  }
}

/** Parses `1`, `2`, `25%`. Zero is refused: a budget of nothing would never let an upgrade start. */
export function parseMaxUnavailable(raw: string | number): MaxUnavailable {
  const text = String(raw).trim();
  const percent = /^(\d{1,3})%$/.exec(text);
  if (percent) {
    const p = Number(percent[1]);
    if (p < 1 || p > 100) throw new MaxUnavailableError(text);
    return { kind: 'percent', percent: p };
  }
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1) throw new MaxUnavailableError(text);
  return { kind: 'count', count: Number(text) };
}

/**
 * How many of `total` Windows nodes may be unavailable at once: a percentage is rounded down, as the
 * Machine Config Operator does for a pool's maxUnavailable, but never below one, so progress is possible.
 */
export function resolveMaxUnavailable(m: MaxUnavailable, total: number): number {
  if (m.kind === 'count') return m.count;
  return Math.max(1, Math.floor((m.percent * total) / 100));
}

export function describeMaxUnavailable(m: MaxUnavailable): string {
  return m.kind === 'count' ? String(m.count) : `${m.percent}%`;
}
