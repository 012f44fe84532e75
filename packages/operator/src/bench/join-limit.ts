import type { HostCosts } from '@wmco/sim';

/** What one join made a simulated host do, read from its counters. */
export interface JoinWork {
  /** `powershell.exe` starts (observe and apply of every converge round). */
  readonly powershellStarts: number;
  /** Exec channels (one request/answer round trip each). */
  readonly execs: number;
  /** Service starts by the host's service control manager. */
  readonly serviceStarts: number;
  /** Bytes uploaded over SFTP. */
  readonly bytes: number;
}

/** The physical limit of one join, in seconds, and its parts. */
export interface JoinLimit {
  readonly seconds: number;
  readonly parts: { powershell: number; services: number; roundTrips: number; transfer: number };
}

/**
 * The physical limit of a join: the time the host work alone takes at the given costs, with nothing
 * else (no operator CPU, no API server, no kubelet) on the critical path. The model:
 *
 * - PowerShell starts: every converge round runs observe, then apply, each one `powershell.exe` start,
 *   and the rounds follow one another (files, bootstrap services, then each service level, because each
 *   level needs the previous one running). So every start is on the critical path:
 *   `starts × powershellStartMs`.
 * - Service starts: the SCM starts a service and its dependencies one after another and the operator
 *   waits for RUNNING, so `serviceStarts × serviceStartMs`.
 * - Round trips: every exec is one request and one answer on the link, in sequence: `execs × latencyMs`.
 *   SFTP requests are pipelined, so they are not counted as round trips, only as bytes.
 * - Transfer: the link carries the uploads one after another: `bytes / bandwidth`.
 *
 * Cluster-side waits (kubelet TLS bootstrap and CSR approval, node registration, the hybrid-overlay
 * subnet annotation, the node turning Ready) are not in the limit: they are the simulated cluster's,
 * not the host's, and the gap between the measured join and this limit contains them.
 */
export function joinLimit(work: JoinWork, costs: HostCosts): JoinLimit {
  const parts = {
    powershell: (work.powershellStarts * costs.powershellStartMs) / 1000,
    services: (work.serviceStarts * costs.serviceStartMs) / 1000,
    roundTrips: (work.execs * costs.latencyMs) / 1000,
    transfer: Number.isFinite(costs.bandwidthBytesPerSec) ? work.bytes / costs.bandwidthBytesPerSec : 0,
  };
  const seconds = parts.powershell + parts.services + parts.roundTrips + parts.transfer;
  return { seconds, parts };
}

/**
 * N hosts joined with `parallel` joins at once: each host has its own link and its own PowerShell, but a
 * join holds one of the operator's `parallel` slots for at least the one-host limit, so N joins take at
 * least ceil(N / parallel) of them.
 */
export function parallelLimit(one: number, hosts: number, parallel: number): number {
  return Math.ceil(hosts / Math.max(1, parallel)) * one;
}

/** Rounds seconds to milliseconds, for printing and the JSON line. */
export function ms(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
