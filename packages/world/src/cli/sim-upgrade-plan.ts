import { parseMaxUnavailable } from '@wmco/core/internal';

/** What `--upgrade-after S [--max-unavailable K]` asks of `wmco sim`. */
export interface SimUpgradeOptions {
  readonly upgradeAfter?: string;
  readonly maxUnavailable?: string;
}

/** `--upgrade-after S [--max-unavailable K]`, checked before anything starts. */
export function upgradePlan(
  opts: SimUpgradeOptions,
): { afterMs: number; maxUnavailable?: string } | undefined {
  if (opts.upgradeAfter === undefined) {
    if (opts.maxUnavailable !== undefined) throw new Error('--max-unavailable needs --upgrade-after');
    return undefined;
  }
  const s = Number(opts.upgradeAfter);
  if (!Number.isFinite(s) || s < 0 || s > 3600)
    throw new Error(`--upgrade-after: "${opts.upgradeAfter}" is not a number of seconds from 0 to 3600`);
  if (opts.maxUnavailable !== undefined) parseMaxUnavailable(opts.maxUnavailable);
  return { afterMs: s * 1000, ...(opts.maxUnavailable ? { maxUnavailable: opts.maxUnavailable } : {}) };
}
