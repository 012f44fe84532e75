import type { Logger } from '@wmco/core';

/** How long each part of the operator gets to stop before the stop goes on without it. */
export const STOP_PART_BOUND_MS = 20_000;

/** One part of a stop: its name (for the log) and what stops it. */
export type StopPart = readonly [name: string, stop: () => Promise<unknown>];

/**
 * Stops the parts in order, each given at most `ms`: a part that has not stopped by then is logged as an
 * error naming it (`stop overran its bound`) and left behind, and the next part stops. Resolves with the
 * names of the parts that overran or failed, so a stop always ends and says which part did not.
 */
export async function boundedStop(
  parts: readonly StopPart[],
  logger: Logger,
  ms = STOP_PART_BOUND_MS,
): Promise<string[]> {
  const overran: string[] = [];
  for (const [name, stop] of parts) {
    let timer: NodeJS.Timeout | undefined;
    // Not unref'd: the bound must fire even when the part that hangs holds nothing alive.
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
    const outcome = await Promise.race([
      stop().then(
        () => 'stopped' as const,
        (err: unknown) => err,
      ),
      late,
    ]);
    clearTimeout(timer);
    if (outcome === 'stopped') continue;
    overran.push(name);
    if (outcome === 'late') logger.error({ part: name, boundMs: ms }, 'stop overran its bound; going on');
    else logger.error({ part: name, err: String(outcome) }, 'stop failed; going on');
  }
  return overran;
}
