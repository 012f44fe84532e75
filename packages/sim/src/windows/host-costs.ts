import type { SilenceFaults } from './host-faults.js';

/** What things cost on one simulated host. Times in milliseconds. */
export interface HostCosts {
  /** Added to every exec answer and every SFTP answer (one network round trip). */
  latencyMs: number;
  /** Link bandwidth for SFTP writes, bytes per second (Infinity = free). */
  bandwidthBytesPerSec: number;
  /** Every `powershell.exe` start (upstream measured about half a second). */
  powershellStartMs: number;
  /** From StartService to RUNNING. */
  serviceStartMs: number;
  /** From a stop to STOPPED (STOP_PENDING meanwhile); optional, 0 when unset. */
  serviceStopMs?: number;
  /** From the last handle of a deleted service closing to the service being gone; optional, 0 when unset. */
  serviceDeleteMs?: number;
  /** How long the module waits for a service to reach RUNNING (two minutes on a real host); optional. */
  serviceStartTimeoutMs?: number;
  /** From going down to accepting SSH again. */
  rebootMs: number;
  /**
   * From a reboot request to going down (`shutdown /r /t 3` gives 3 s; optional, 20 ms when unset): the host
   * answers and keeps serving until then.
   */
  rebootGraceMs?: number;
}

/** Realistic defaults: a LAN link of 1 Gbit/s with 1 ms round trips, 0.5 s PowerShell starts. */
export const DEFAULT_HOST_COSTS: HostCosts = {
  latencyMs: 1,
  bandwidthBytesPerSec: 125_000_000,
  powershellStartMs: 500,
  serviceStartMs: 200,
  serviceStopMs: 100,
  serviceDeleteMs: 50,
  rebootMs: 20_000,
};

/** Costs of nothing, for tests that are not about costs. */
export const FREE_HOST_COSTS: HostCosts = {
  latencyMs: 0,
  bandwidthBytesPerSec: Infinity,
  powershellStartMs: 0,
  serviceStartMs: 0,
  // Stops and deletions still pass through STOP_PENDING and "marked for deletion", briefly.
  serviceStopMs: 1,
  serviceDeleteMs: 0,
  rebootMs: 50,
};

/**
 * Faults to inject; the one-shot ones fire once and then clear themselves, the `while set` ones last until
 * deleted (the silent points and the persistent flood are described in host-faults.ts).
 */
export interface HostFaults extends SilenceFaults {
  /** Drop the connection once this many upload bytes have arrived. */
  dropAfterUploadBytes?: number;
  /** Reboot (dropping the connection, no answer) just before this step index of the next apply. */
  rebootDuringApplyAtStep?: number;
  /**
   * Drop the SSH connection (no goodbye) just before this step index of the next apply. The module's
   * process is not in a job that dies with the session (Win32-OpenSSH, non-pty exec), so the apply runs
   * to its end on the host; only its answer is lost.
   */
  dropDuringApplyAtStep?: number;
  /** Refuse every authentication attempt while set. */
  refuseAuthentication?: boolean;
  /** The next exec never answers. */
  hangNextCommand?: boolean;
  /**
   * The next exec prints without end (a hostile or broken host) until the client closes the channel: one
   * endless line (true) or endless short lines (`'lines'`, each `x` and CRLF).
   */
  endlessOutput?: boolean | 'lines';
}

/** Serialises bytes on a link of the given bandwidth: when would a write of `bytes` finish? */
export class LinkClock {
  private freeAt = 0;

  constructor(private readonly costs: HostCosts) {}

  /** Milliseconds from now until `bytes` have crossed the link, plus one latency. */
  delayFor(bytes: number): number {
    const now = performance.now();
    const transfer = Number.isFinite(this.costs.bandwidthBytesPerSec)
      ? (bytes / this.costs.bandwidthBytesPerSec) * 1000
      : 0;
    this.freeAt = Math.max(now, this.freeAt) + transfer;
    return this.freeAt - now + this.costs.latencyMs;
  }
}
