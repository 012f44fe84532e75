import { readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import type { Logger } from '@wmco/core';

/**
 * What decides how many hosts the operator configures at once by default (`--parallel-joins` overrides
 * it). Upstream configures one host after another; a fixed number either starves a large machine or
 * overloads a small pod. Most of a join is waiting (PowerShell, service starts, the Node and its CSRs), so
 * joins at once follow the memory their connections hold. Uploads are not limited apart by default: with
 * every join uploading at once the CPUs stay busy encrypting until the last byte, which measured faster
 * than waves of a few uploads at a time (ADR 0026); `--parallel-uploads` caps them where the CPU must be
 * kept for other work.
 */
export interface JoinCosts {
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
  readonly byMemory: number;
  readonly resources: MachineResources;
}

/** The default joins at once: as many as the memory can hold, between 1 and 50. */
export function defaultParallelJoins(r: MachineResources, c: JoinCosts = JOIN_COSTS): JoinConcurrency {
  const byMemory = Math.floor((r.memoryBytes - c.baselineBytes) / c.bytesPerJoin);
  return { parallelJoins: Math.min(c.max, Math.max(c.min, byMemory)), byMemory, resources: r };
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
    byMemory: c.byMemory,
    cpus,
    memoryMiB,
    source,
  };
  logger.info(fields, 'hosts configured at once, from the memory (--parallel-joins overrides)');
}
