import { setTimeout as sleep } from 'node:timers/promises';
import { readdirSync, readFileSync } from 'node:fs';

/** The process exists and is not a zombie waiting for its parent to collect it. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // Field 3 of /proc/<pid>/stat, after the command name in parentheses: Z for a zombie.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Resolves true once none of `pids` runs, false if one still does after `boundMs` (a bound that only
 * fails a test whose processes never end; on a busy machine it waits as long as they take up to it).
 */
export async function gone(pids: readonly number[], boundMs = 60_000): Promise<boolean> {
  const deadline = Date.now() + boundMs;
  while (pids.some(alive)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/** Pids of the processes (other than this one) whose command line contains `text`. */
export function processesMentioning(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text) && alive(pid)) pids.push(pid);
    } catch {
      // ended meanwhile
    }
  }
  return pids;
}
