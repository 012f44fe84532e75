import { performance } from 'node:perf_hooks';
import type { ServiceRecord } from '@wmco/sim';
import type { WorldHostSet } from '../world/world-hosts.js';
import type { HostRequest, HostSnapshot, ProcessUsage } from './host-process-protocol.js';
import { descendantsCpuSeconds } from './proc-stats.js';

function running(services: readonly ServiceRecord[]): HostSnapshot['services'] {
  return services
    .filter((s) => s.state === 'running')
    .map((s) => ({ name: s.name, dependencies: [...s.dependencies], commandLine: s.commandLine }));
}

/** One host's counters and running services now; an address this process does not hold is an error. */
export function hostSnapshot(hosts: WorldHostSet, address: string): HostSnapshot {
  const sim = hosts.byAddress(address);
  if (!sim) throw new Error(`no simulated host at ${address} in this process`);
  return {
    address,
    work: {
      powershellStarts: sim.stats.powershellStarts,
      execs: sim.stats.execs,
      serviceStarts: sim.model.scm.events.filter((e) => e.action === 'start').length,
      bytes: sim.stats.bytesReceived,
    },
    services: running(sim.model.scm.all()),
  };
}

/** This process's CPU seconds (and its descendants'), peak RSS and event loop time, since it started. */
export function processUsage(): ProcessUsage {
  const cpu = process.cpuUsage();
  const elu = performance.eventLoopUtilization();
  return {
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    childrenCpuSeconds: descendantsCpuSeconds(),
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    eventLoopActiveMs: elu.active,
    eventLoopIdleMs: elu.idle,
  };
}

/** The addresses of the hosts whose file at `path` holds `text`. */
export function hostsContaining(hosts: WorldHostSet, path: string, text: string): string[] {
  return hosts.hosts
    .filter((h) => h.sim.model.files.read(path)?.toString().includes(text) === true)
    .map((h) => h.address);
}

/** The answer to one request of the world process. */
export function answerHostRequest(
  hosts: WorldHostSet,
  r: HostRequest,
): HostSnapshot[] | ProcessUsage | string[] {
  if (r.op === 'usage') return processUsage();
  if (r.op === 'containing') return hostsContaining(hosts, r.path, r.text);
  return r.addresses.map((a) => hostSnapshot(hosts, a));
}
