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
