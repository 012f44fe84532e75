import type { ChildProcess } from 'node:child_process';

/**
 * How long a session's process may take to end by itself once its channel closed, before it is killed. The
 * harness ends at the end of its input, within a fraction of a second when it waits for a request.
 */
export const SESSION_END_GRACE_MS = 2000;

/**
 * Kills a session's process and everything it started: it runs in a process group of its own (spawned
 * `detached`), as the `pwsh` of a .NET tool is a launcher whose child runs PowerShell. Killing the launcher
 * alone left that child running, on a host that was down.
 */
export function killSession(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group is gone already.
  }
}

/**
 * The session's channel closed: its input ends, so the session ends by itself and each process is waited
 * for by its parent (its CPU is then counted to the host's process); one still running after `graceMs`
 * (busy, or hung) is killed with its group.
 */
export function endSession(child: ChildProcess, graceMs = SESSION_END_GRACE_MS): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.stdin?.end();
  const timer = setTimeout(() => killSession(child), graceMs);
  child.once('exit', () => clearTimeout(timer));
}
