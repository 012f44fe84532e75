import type { CliContext } from '@wmco/operator';

/** How long `wmco sim` may stay alive after its stop finished before it exits naming what was left. */
export const AFTER_STOP_GRACE_MS = 10_000;

/**
 * Resolves with the signal's name on the first SIGTERM or SIGINT. From then on a second signal ends the
 * process at once, and `stopped()` (called once the world's bounded stop finished) arms an exit: if
 * something the stop missed still holds the process (a server, a socket, a timer) after `graceMs`, the
 * process prints what it was and exits 1, so a stop always ends (issue 28: `wmco sim` hung in
 * "stopping" for more than 15 minutes). The exit timer is unref'd: a clean stop exits before it.
 */
export function nextShutdownSignal(
  ctx: Pick<CliContext, 'stderr'>,
  graceMs = AFTER_STOP_GRACE_MS,
): { signal: Promise<NodeJS.Signals>; stopped: () => void } {
  let received = false;
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    const on = (s: NodeJS.Signals): void => {
      process.off('SIGTERM', on);
      process.off('SIGINT', on);
      received = true;
      const again = (): void => process.exit(s === 'SIGINT' ? 130 : 143);
      process.once('SIGTERM', again);
      process.once('SIGINT', again);
      resolve(s);
    };
    process.on('SIGTERM', on);
    process.on('SIGINT', on);
  });
  const stopped = (): void => {
    if (!received) return;
    const timer = setTimeout(() => {
      const left = process.getActiveResourcesInfo().filter((r) => r !== 'Timeout');
      ctx.stderr(`wmco sim: stopped, but still held by ${left.join(', ') || 'nothing known'}; exiting`);
      process.exit(1);
    }, graceMs);
    timer.unref();
  };
  return { signal, stopped };
}
