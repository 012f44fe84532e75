import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** One look at a process from outside (Linux /proc): resident memory and CPU time used so far. */
export interface ProcSample {
  readonly rssBytes: number;
  /** Peak resident memory so far (VmHWM). */
  readonly peakRssBytes: number;
  readonly cpuSeconds: number;
}

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on every Linux architecture Node runs on). */
const USER_HZ = 100;

/** `VmRSS` / `VmHWM` of /proc/<pid>/status and `utime + stime` of /proc/<pid>/stat. */
export function parseProc(status: string, stat: string): ProcSample {
  const kib = (field: string): number => {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
    if (!m) throw new Error(`/proc status has no ${field}`);
    return Number(m[1]) * 1024;
  };
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its ')'.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error('/proc stat has no utime/stime');
  return { rssBytes: kib('VmRSS'), peakRssBytes: kib('VmHWM'), cpuSeconds: (utime + stime) / USER_HZ };
}

/**
 * `cutime + cstime` of /proc/<pid>/stat: the CPU seconds of the process's children that ended and were waited
 * for (and of their own waited-for children), e.g. a simulated host's PowerShell processes.
 */
export function parseChildrenCpu(stat: string): number {
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cutime = Number(rest[13]);
  const cstime = Number(rest[14]);
  if (!Number.isFinite(cutime) || !Number.isFinite(cstime))
    throw new Error('/proc stat has no cutime/cstime');
  return (cutime + cstime) / USER_HZ;
}

/** This process's ended children's CPU seconds so far (parseChildrenCpu of /proc/self/stat). */
export function childrenCpuSeconds(): number {
  return parseChildrenCpu(readFileSync('/proc/self/stat', 'utf8'));
}

export async function sampleProcess(pid: number): Promise<ProcSample> {
  const [status, stat] = await Promise.all([
    readFile(`/proc/${pid}/status`, 'utf8'),
    readFile(`/proc/${pid}/stat`, 'utf8'),
  ]);
  return parseProc(status, stat);
}
