import { readdirSync, readFileSync } from 'node:fs';
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
  const { cpuSeconds } = parseStatTimes(stat);
  return { rssBytes: kib('VmRSS'), peakRssBytes: kib('VmHWM'), cpuSeconds };
}

/** The times of one /proc/<pid>/stat: its parent, its own CPU and that of its ended, waited-for children. */
export interface StatTimes {
  readonly pid: number;
  readonly ppid: number;
  /** `utime + stime`, seconds. */
  readonly cpuSeconds: number;
  /** `cutime + cstime`, seconds: children that ended and were waited for (and their own such children). */
  readonly childrenCpuSeconds: number;
}

export function parseStatTimes(stat: string): StatTimes {
  const pid = Number(stat.slice(0, stat.indexOf(' ')));
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its ')'.
  const f = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map((x) => Number(x));
  const [ppid, utime, stime, cutime, cstime] = [f[1], f[11], f[12], f[13], f[14]];
  if (![pid, ppid, utime, stime, cutime, cstime].every((n) => Number.isFinite(n)))
    throw new Error('/proc stat has no pid, ppid, utime, stime, cutime or cstime');
  return {
    pid,
    ppid: ppid!,
    cpuSeconds: (utime! + stime!) / USER_HZ,
    childrenCpuSeconds: (cutime! + cstime!) / USER_HZ,
  };
}

function readStat(pid: string): StatTimes | undefined {
  try {
    return parseStatTimes(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined; // gone between the listing and the read
  }
}

/** Every process now, by its parent's pid. */
function processesByParent(): Map<number, StatTimes[]> {
  const byParent = new Map<number, StatTimes[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const t = readStat(name);
    if (!t) continue;
    const siblings = byParent.get(t.ppid);
    if (siblings) siblings.push(t);
    else byParent.set(t.ppid, [t]);
  }
  return byParent;
}

/**
 * CPU seconds of the descendants of process `pid` so far: those that ended (its `cutime + cstime`) and those
 * still running (each one's own and its ended children's), e.g. a simulated host's PowerShell processes, which
 * live as long as the operator's connection (the `pwsh` of a .NET tool runs the real one as its own child).
 */
export function descendantsCpuSeconds(pid = process.pid): number {
  const byParent = processesByParent();
  let total = readStat(String(pid))?.childrenCpuSeconds ?? 0;
  const live = [...(byParent.get(pid) ?? [])];
  for (let t = live.pop(); t; t = live.pop()) {
    total += t.cpuSeconds + t.childrenCpuSeconds;
    live.push(...(byParent.get(t.pid) ?? []));
  }
  return total;
}

export async function sampleProcess(pid: number): Promise<ProcSample> {
  const [status, stat] = await Promise.all([
    readFile(`/proc/${pid}/status`, 'utf8'),
    readFile(`/proc/${pid}/stat`, 'utf8'),
  ]);
  return parseProc(status, stat);
}
