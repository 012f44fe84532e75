import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { HostProcesses } from './host-processes.js';
import type { ProcessUsage } from './host-process-protocol.js';
import { ms } from './join-limit.js';
import type { JoinRun } from './join-run.js';

/** The world process's and the host processes' CPU and event loop, at one moment. */
export interface Usage {
  readonly cpu: NodeJS.CpuUsage;
  readonly elu: EventLoopUtilization;
  readonly hosts: ProcessUsage[];
}

export async function usageNow(hosts: HostProcesses): Promise<Usage> {
  return { cpu: process.cpuUsage(), elu: performance.eventLoopUtilization(), hosts: await hosts.usage() };
}

/** The world process's and host processes' figures between two moments. */
export function usageBetween(
  a: Usage,
  b: Usage,
): Pick<
  JoinRun,
  | 'cpuSeconds'
  | 'eventLoopBusy'
  | 'hostsCpuSeconds'
  | 'hostsChildrenCpuSeconds'
  | 'hostsPeakRssMiB'
  | 'hostsEventLoopBusy'
> {
  const busy = b.hosts.map((h, i) => {
    const active = h.eventLoopActiveMs - a.hosts[i]!.eventLoopActiveMs;
    const idle = h.eventLoopIdleMs - a.hosts[i]!.eventLoopIdleMs;
    return active + idle > 0 ? active / (active + idle) : 0;
  });
  return {
    cpuSeconds: (b.cpu.user - a.cpu.user + b.cpu.system - a.cpu.system) / 1e6,
    eventLoopBusy: ms(performance.eventLoopUtilization(b.elu, a.elu).utilization),
    hostsCpuSeconds: b.hosts.reduce((n, h, i) => n + h.cpuSeconds - a.hosts[i]!.cpuSeconds, 0),
    hostsChildrenCpuSeconds: b.hosts.reduce(
      (n, h, i) => n + h.childrenCpuSeconds - a.hosts[i]!.childrenCpuSeconds,
      0,
    ),
    hostsPeakRssMiB: Math.max(...b.hosts.map((h) => h.peakRssMiB)),
    hostsEventLoopBusy: ms(Math.max(...busy)),
  };
}
