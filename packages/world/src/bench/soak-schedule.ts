// The fault schedule of `pnpm bench soak`: which fault hits when, drawn from a seeded PRNG so that a run is
// reproducible (the same seed, hosts, faults and day give the same schedule).

/** The faults of the fault matrix (world/fault-matrix-rows.ts) that make sense at fleet scale. */
export const SOAK_FAULT_KINDS = [
  'ssh-drop',
  'power-loss',
  'api-409',
  'api-429',
  'api-5xx',
  'watch-drop',
  'operator-kill',
  'upgrade',
  'reboot',
  'host-silent',
] as const;

export type SoakFaultKind = (typeof SOAK_FAULT_KINDS)[number];

/** One fault of the day. */
export interface SoakFault {
  /** Milliseconds from the start of the day. */
  readonly atMs: number;
  readonly kind: SoakFaultKind;
  /** The host it hits (index into the fleet): the host faults, a reboot; drawn for every fault alike. */
  readonly host: number;
  /** How long a `host-silent` host stays silent (drawn for every fault alike). */
  readonly silentMs: number;
}

export interface SoakScheduleOptions {
  readonly seed: number;
  readonly hosts: number;
  readonly faults: number;
  readonly dayMs: number;
}

/** Upgrades in one day at most: each rolls the whole fleet, so more would leave no day for the rest. */
export const MAX_UPGRADES = 1;
/** A silent host's silence: from 20 s (within the quick-request deadline) to 90 s (beyond its 60 s). */
export const SILENT_MIN_MS = 20_000;
export const SILENT_SPAN_MS = 70_000;

/** mulberry32: a small 32-bit PRNG, enough to draw a schedule (not for anything secret). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** `faults` faults at random times of the day, sorted by time; at most MAX_UPGRADES upgrades. */
export function soakSchedule(o: SoakScheduleOptions): SoakFault[] {
  if (!Number.isInteger(o.hosts) || o.hosts < 1 || !Number.isInteger(o.faults) || o.faults < 0)
    throw new Error('a soak schedule needs at least one host and a whole number of faults');
  if (!(o.dayMs > 0)) throw new Error('a soak schedule needs a day longer than 0 ms');
  const next = prng(o.seed);
  const pick = (n: number): number => Math.min(n - 1, Math.floor(next() * n));
  const out: SoakFault[] = [];
  let upgrades = 0;
  while (out.length < o.faults) {
    const fault: SoakFault = {
      atMs: pick(o.dayMs),
      kind: SOAK_FAULT_KINDS[pick(SOAK_FAULT_KINDS.length)]!,
      host: pick(o.hosts),
      silentMs: SILENT_MIN_MS + pick(SILENT_SPAN_MS),
    };
    // A draw beyond the upgrades allowed is drawn again (still a function of the seed alone).
    if (fault.kind === 'upgrade' && ++upgrades > MAX_UPGRADES) continue;
    out.push(fault);
  }
  return out.sort((a, b) => a.atMs - b.atMs);
}

/** A fresh seed for a run that names none (printed, so that the run can be repeated). */
export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}
