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

/**
 * PowerShell starts any join needs, whatever the design: one to look at the host and one to change it.
 * (Fewer is impossible: the operator must observe before it knows what to send, and apply after.)
 */
export const MIN_POWERSHELL_STARTS = 2;

/**
 * API writes that must follow one another in any join: the kubelet's client CSR, its approval, the
 * kubelet's Node, the operator's labels and annotations on it, the hybrid-overlay subnet annotation, the
 * kubelet's Ready status, and the operator's final version annotation and uncordon.
 */
export const MIN_API_ROUND_TRIPS = 7;

/** The physical limit of one host's join, in seconds, and its parts. */
export interface HostCriticalPath {
  readonly seconds: number;
  readonly parts: { transfer: number; powershell: number; services: number; apiRoundTrips: number };
}

/**
 * One host's critical path, independent of this implementation: its compressed payload over its own
 * link, two PowerShell starts, its services started one after another (each waits for the one it
 * depends on), and the API round trips a join cannot avoid, at `apiRoundTripSeconds` each (measured).
 */
export function hostCriticalPath(
  host: { readonly compressedPayloadBytes: number; readonly serviceStarts: number },
  costs: HostCosts,
  apiRoundTripSeconds: number,
): HostCriticalPath {
  const parts = {
    transfer: Number.isFinite(costs.bandwidthBytesPerSec)
      ? host.compressedPayloadBytes / costs.bandwidthBytesPerSec + costs.latencyMs / 1000
      : 0,
    powershell: (MIN_POWERSHELL_STARTS * (costs.powershellStartMs + costs.latencyMs)) / 1000,
    services: (host.serviceStarts * costs.serviceStartMs) / 1000,
    apiRoundTrips: MIN_API_ROUND_TRIPS * apiRoundTripSeconds,
  };
  return { seconds: parts.transfer + parts.powershell + parts.services + parts.apiRoundTrips, parts };
}

/** The limit of joining several hosts at once and which bound decides it. */
export interface JoinLimit {
  readonly seconds: number;
  /** (a) the slowest host's critical path; each host has its own link and its own PowerShell. */
  readonly criticalPath: number;
  /** (b) every byte sent through this machine's SSH encryption, at its measured throughput. */
  readonly encryption: number;
  readonly bound: 'critical path' | 'SSH throughput';
}

/** max((a) one host's critical path, (b) all bytes ÷ this machine's SSH throughput). */
export function joinLimit(
  criticalPathSeconds: number,
  totalBytes: number,
  sshBytesPerSecond: number,
): JoinLimit {
  const encryption = totalBytes / sshBytesPerSecond;
  return {
    seconds: Math.max(criticalPathSeconds, encryption),
    criticalPath: criticalPathSeconds,
    encryption,
    bound: encryption > criticalPathSeconds ? 'SSH throughput' : 'critical path',
  };
}

/** Rounds seconds to milliseconds, for printing and the JSON line. */
export function ms(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
