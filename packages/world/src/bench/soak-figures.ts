import { ms } from './join-limit.js';

/** What `pnpm bench soak` measured. */
export interface SoakMeasurement {
  readonly hosts: number;
  /** Faults injected over the day. */
  readonly faults: number;
  /** Hosts not Ready at the end (their addresses). */
  readonly stuck: readonly string[];
  /** Hosts Ready at the end whose configuration differs from a clean join's. */
  readonly partial: readonly string[];
  /** The operator process's resident memory once the first joins had settled, and at the end. */
  readonly rssStartBytes: number;
  readonly rssEndBytes: number;
  /** The longest wait of a key of the instances queue for its lane (scale-operator.ts says how). */
  readonly maxLaneWaitMs: number;
}

/** The bench's one JSON line. */
export interface SoakFigures {
  readonly hosts: number;
  readonly faults: number;
  readonly stuckNodes: number;
  readonly partialNodes: number;
  readonly rssStartMiB: number;
  readonly rssEndMiB: number;
  readonly maxLaneWaitSeconds: number;
}

/** RSS at the end may exceed the start by this factor at most. */
export const RSS_GROWTH_LIMIT = 1.1;

const mib = (bytes: number): number => Math.round((bytes / 2 ** 20) * 10) / 10;

export function soakFigures(m: SoakMeasurement): SoakFigures {
  return {
    hosts: m.hosts,
    faults: m.faults,
    stuckNodes: m.stuck.length,
    partialNodes: m.partial.length,
    rssStartMiB: mib(m.rssStartBytes),
    rssEndMiB: mib(m.rssEndBytes),
    maxLaneWaitSeconds: ms(m.maxLaneWaitMs / 1000),
  };
}

/** Why the run fails (empty: it passes): stuck or partial nodes, or RSS grown beyond RSS_GROWTH_LIMIT. */
export function soakFailures(f: SoakFigures): string[] {
  const why: string[] = [];
  if (f.stuckNodes > 0) why.push(`${f.stuckNodes} node(s) not Ready at the end`);
  if (f.partialNodes > 0) why.push(`${f.partialNodes} Ready node(s) without their full configuration`);
  if (f.rssEndMiB > f.rssStartMiB * RSS_GROWTH_LIMIT)
    why.push(
      `operator RSS grew from ${f.rssStartMiB} MiB to ${f.rssEndMiB} MiB (more than ${RSS_GROWTH_LIMIT}×)`,
    );
  return why;
}
