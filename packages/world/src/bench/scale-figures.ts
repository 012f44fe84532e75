import { ms } from './join-limit.js';

/** The operator process and the API server at one moment of the steady state. */
export interface ScalePoint {
  readonly atMs: number;
  readonly cpuSeconds: number;
  /** API requests the operator's user made so far (a watch counts once). */
  readonly apiRequests: number;
  /** Drift checks the operator finished so far (`wmco_drift_checks_total`, every result). */
  readonly driftChecks: number;
}

export interface ScaleMeasurement {
  readonly nodes: number;
  readonly start: ScalePoint;
  readonly end: ScalePoint;
  /** Resident memory samples of the operator over the steady state. */
  readonly rssBytes: readonly number[];
}

export interface ScaleFigures {
  readonly nodes: number;
  /** The largest resident memory seen in the steady state, MiB. */
  readonly rssMiB: number;
  /** Operator CPU seconds per drift cycle (as many checks as nodes) over the steady state. */
  readonly cpuSecondsPerDriftCycle: number;
  readonly apiRequestsPerMinute: number;
}

/** Drift cycles done between two points: checks finished ÷ nodes. */
export function driftCycles(m: Pick<ScaleMeasurement, 'nodes' | 'start' | 'end'>): number {
  return (m.end.driftChecks - m.start.driftChecks) / m.nodes;
}

export function scaleFigures(m: ScaleMeasurement): ScaleFigures {
  const cycles = driftCycles(m);
  const minutes = (m.end.atMs - m.start.atMs) / 60_000;
  if (cycles <= 0 || minutes <= 0 || m.rssBytes.length === 0)
    throw new Error('the steady state needs time, at least one drift check and one memory sample');
  return {
    nodes: m.nodes,
    rssMiB: Math.round(Math.max(...m.rssBytes) / 2 ** 20),
    cpuSecondsPerDriftCycle: ms((m.end.cpuSeconds - m.start.cpuSeconds) / cycles),
    apiRequestsPerMinute: Math.round((m.end.apiRequests - m.start.apiRequests) / minutes),
  };
}

/** What bench scale reads of an instance's entry in windows-instances-status. */
export interface JoinStatus {
  readonly address: string;
  readonly phase?: string;
  readonly joinSeconds?: number;
  readonly phaseSeconds?: Readonly<Record<string, number>>;
}

/**
 * One line on a batch of joins: their median and slowest join, and where the slowest spent its time (the
 * phases of windows-instances-status), so that a stall shows which phase it is in.
 */
export function batchSummary(batch: readonly JoinStatus[]): string {
  const joined = batch.filter((s) => s.joinSeconds !== undefined);
  if (joined.length === 0) return 'no join times';
  const times = joined.map((s) => s.joinSeconds!).sort((a, b) => a - b);
  const slowest = joined.reduce((a, b) => (b.joinSeconds! > a.joinSeconds! ? b : a));
  const phases = Object.entries(slowest.phaseSeconds ?? {})
    .map(([p, s]) => `${p} ${ms(s)} s`)
    .join(', ');
  return `joins median ${ms(times[Math.floor(times.length / 2)]!)} s, slowest ${ms(slowest.joinSeconds!)} s (${slowest.address}: ${phases})`;
}
