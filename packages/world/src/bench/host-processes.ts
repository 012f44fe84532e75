import { join } from 'node:path';
import { HostProcess, type RemoteHost } from './host-process-client.js';
import type { HostProcessTask, HostSnapshot, ProcessUsage } from './host-process-protocol.js';

/**
 * How many hosts each host process holds by default: the hosts spread over as many processes as this
 * machine has cores, never more processes than hosts. A process per core lets the hosts' end of SSH use
 * every core the operator leaves; more processes than cores add no parallelism, only memory (each holds
 * the known payload, about 200 MB of the realistic one) and start-up.
 */
export function defaultHostsPerProcess(hosts: number, cores: number): number {
  return Math.ceil(hosts / Math.max(1, Math.min(hosts, cores)));
}

/** `hostnames` in consecutive groups of at most `perProcess`. */
export function hostGroups(hostnames: readonly string[], perProcess: number): string[][] {
  if (!Number.isInteger(perProcess) || perProcess < 1)
    throw new Error(`hosts per process must be a positive integer, not ${perProcess}`);
  const groups: string[][] = [];
  for (let i = 0; i < hostnames.length; i += perProcess) groups.push(hostnames.slice(i, i + perProcess));
  return groups;
}

/**
 * What every host process shares (the task without its hosts and folder), and optionally each host's
 * loopback address, in the order of the hostnames (default: each host process picks).
 */
export type HostProcessesTask = Omit<HostProcessTask, 'hostnames' | 'dir' | 'addresses'> & {
  readonly dir: string;
  readonly addresses?: readonly string[];
};

/** The simulated hosts of a bench, spread over processes of their own (host-process.ts). */
export class HostProcesses {
  private constructor(readonly processes: readonly HostProcess[]) {}

  /**
   * Starts one process per group at once; if any fails to start, the others are stopped and this rejects
   * with the first error.
   */
  static async start(
    hostnames: readonly string[],
    perProcess: number,
    task: HostProcessesTask,
    nodeOptions: readonly string[] = [],
  ): Promise<HostProcesses> {
    const { addresses, ...shared } = task;
    const groups = hostGroups(hostnames, perProcess);
    const results = await Promise.allSettled(
      groups.map((g, i) => {
        const own = addresses?.slice(i * perProcess, i * perProcess + g.length);
        const hosts = { hostnames: g, ...(own ? { addresses: own } : {}) };
        return HostProcess.start({ ...shared, ...hosts, dir: join(task.dir, `hosts-${i}`) }, nodeOptions);
      }),
    );
    const up = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) {
      await Promise.all(up.map((p) => p.stop()));
      throw failed.reason;
    }
    return new HostProcesses(up);
  }

  /** Every host, in the order of the hostnames given. */
  get hosts(): RemoteHost[] {
    return this.processes.flatMap((p) => [...p.hosts]);
  }

  get pids(): number[] {
    return this.processes.map((p) => p.pid);
  }

  /** Each named host's counters and running services, asked of the processes that hold them. */
  async snapshots(addresses: readonly string[]): Promise<HostSnapshot[]> {
    const asked = this.processes.map((p) => {
      const mine = addresses.filter((a) => p.hosts.some((h) => h.address === a));
      return mine.length > 0 ? p.snapshots(mine) : Promise.resolve([]);
    });
    const byAddress = new Map((await Promise.all(asked)).flat().map((s) => [s.address, s]));
    return addresses.map((a) => {
      const s = byAddress.get(a);
      if (!s) throw new Error(`no host process holds ${a}`);
      return s;
    });
  }

  /** The addresses of the hosts whose file at `path` holds `text`, over every process. */
  async containing(path: string, text: string): Promise<string[]> {
    return (await Promise.all(this.processes.map((p) => p.containing(path, text)))).flat();
  }

  /** Each process's usage so far, in process order. */
  usage(): Promise<ProcessUsage[]> {
    return Promise.all(this.processes.map((p) => p.usage()));
  }

  async stop(): Promise<void> {
    await Promise.all(this.processes.map((p) => p.stop()));
  }
}
