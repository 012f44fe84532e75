import { readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import type { Logger } from '@wmco/core';

/**
 * What decides how many hosts the operator configures at once, and how many of them upload at once, by
 * default (`--parallel-joins` and `--parallel-uploads` override them). Upstream configures one host after
 * another; a fixed number either starves a large machine or overloads a small pod. Most of a join is
 * waiting (PowerShell, service starts, the Node and its CSRs); its one CPU-heavy part on the operator's
 * side is encrypting the payload for SSH. So joins at once follow the memory their connections hold, and
 * uploads at once (each host's whole upload holds one slot) follow what the CPUs can encrypt at link speed:
 * hosts then finish their uploads in turn and go on to their applies while others upload (ADR 0026).
 */
export interface JoinCosts {
  /**
   * Bytes one CPU core encrypts and sends per second over ssh2's SFTP. `pnpm bench ciphers` measured
   * 190-210 MB per CPU second for AES-GCM with the native binding, client and host together; the
   * operator's end alone does about half that work, so 200 MB/s per core is on the safe side.
   */
  readonly sshBytesPerCoreSecond: number;
  /** The link a join sends over (1 Gbit/s, as the benchmarks' simulated hosts). */
  readonly linkBytesPerSecond: number;
  /**
   * Memory one join may hold: its PowerShell session's output bound (8 MiB), the SFTP writes in flight
   * (16 × 128 KiB) and the connection's state (about 6 MiB) (packages/core/src/host/ssh/ssh-options.ts).
   */
  readonly bytesPerJoin: number;
  /** The operator's own steady state before any join (informers, the payload manifest, the runtime). */
  readonly baselineBytes: number;
  /** The bounds of `--parallel-joins`. */
  readonly min: number;
  readonly max: number;
}

const MiB = 2 ** 20;

export const JOIN_COSTS: JoinCosts = {
  sshBytesPerCoreSecond: 200e6,
  linkBytesPerSecond: 125e6,
  bytesPerJoin: 8 * MiB + 16 * 128 * 1024 + 6 * MiB,
  baselineBytes: 150 * MiB,
  min: 1,
  max: 50,
};

/** The CPUs and memory this process may use: the machine's, narrowed by its cgroup when it has one. */
export interface MachineResources {
  readonly cpus: number;
  readonly memoryBytes: number;
  /** Where the figures came from, for the start-up log line. */
  readonly source: string;
}

export interface JoinConcurrency {
  readonly parallelJoins: number;
  /** Hosts uploading at once, across all joins and upgrades: what the CPUs can encrypt at link speed. */
  readonly parallelUploads: number;
  readonly byCpu: number;
  readonly byMemory: number;
  readonly resources: MachineResources;
}

/** The defaults: joins at once as the memory can hold, uploads at once as the CPUs can feed their links. */
export function defaultParallelJoins(r: MachineResources, c: JoinCosts = JOIN_COSTS): JoinConcurrency {
  const byCpu = Math.max(1, Math.round((r.cpus * c.sshBytesPerCoreSecond) / c.linkBytesPerSecond));
  const byMemory = Math.floor((r.memoryBytes - c.baselineBytes) / c.bytesPerJoin);
  const parallelJoins = Math.min(c.max, Math.max(c.min, byMemory));
  return { parallelJoins, parallelUploads: Math.min(byCpu, parallelJoins), byCpu, byMemory, resources: r };
}

/** Reads a file's text, or undefined when it does not exist or cannot be read. */
export type ReadText = (path: string) => string | undefined;

const readText: ReadText = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** cgroup v2 `cpu.max` ("max 100000" or "150000 100000"), else v1's cfs quota and period: CPUs, or undefined. */
export function cgroupCpus(read: ReadText, root = '/sys/fs/cgroup'): number | undefined {
  const v2 = read(`${root}/cpu.max`)?.trim().split(/\s+/);
  const [quota, period] = v2
    ? [Number(v2[0]), Number(v2[1])]
    : [Number(read(`${root}/cpu/cpu.cfs_quota_us`)), Number(read(`${root}/cpu/cpu.cfs_period_us`))];
  return quota > 0 && period > 0 ? quota / period : undefined;
}

/** cgroup v2 `memory.max`, else v1's `memory.limit_in_bytes` (v1 writes a huge number for none). */
export function cgroupMemory(read: ReadText, root = '/sys/fs/cgroup'): number | undefined {
  const raw = read(`${root}/memory.max`) ?? read(`${root}/memory/memory.limit_in_bytes`);
  const bytes = Number(raw?.trim());
  return bytes > 0 && bytes < 2 ** 60 ? bytes : undefined;
}

/** This process's CPUs (a quota may give a fraction) and memory: the cgroup's limits where lower than the machine's. */
export function machineResources(
  read: ReadText = readText,
  machine = { cpus: availableParallelism(), memoryBytes: totalmem() },
): MachineResources {
  const quota = cgroupCpus(read);
  const limit = cgroupMemory(read);
  const cpus = Math.min(machine.cpus, quota ?? Infinity);
  const memoryBytes = Math.min(machine.memoryBytes, limit ?? Infinity);
  const from = [
    quota !== undefined ? 'cgroup CPU quota' : 'CPUs',
    limit !== undefined ? 'cgroup memory limit' : 'memory',
  ];
  return { cpus, memoryBytes, source: from.join(', ') };
}

/** The start-up log line of a default chosen from the machine. */
export function logConcurrency(logger: Logger, c: JoinConcurrency): void {
  const memoryMiB = Math.round(c.resources.memoryBytes / 2 ** 20);
  const { cpus, source } = c.resources;
  const fields = {
    parallelJoins: c.parallelJoins,
    parallelUploads: c.parallelUploads,
    byCpu: c.byCpu,
    byMemory: c.byMemory,
    cpus,
    memoryMiB,
    source,
  };
  logger.info(
    fields,
    'hosts configured at once (memory) and uploading at once (CPUs); --parallel-joins and --parallel-uploads override',
  );
}
