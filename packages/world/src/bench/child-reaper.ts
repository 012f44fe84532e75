import type { ChildProcess } from 'node:child_process';

const live = new Set<ChildProcess>();

function killAll(): void {
  for (const child of live) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/**
 * Kills `child` (SIGKILL) if it is still running when this process exits, whatever the exit's cause (an
 * error that skipped the caller's clean-up, `process.exit`): a bench never leaves a child behind. The
 * children of `pnpm bench join` also exit on their own when their IPC channel to this process closes.
 */
export function reapOnExit(child: ChildProcess): void {
  if (live.size === 0) process.on('exit', killAll);
  live.add(child);
  child.once('exit', () => {
    live.delete(child);
    if (live.size === 0) process.off('exit', killAll);
  });
}

/** Children registered and not yet exited (for tests). */
export function liveChildren(): number {
  return live.size;
}
