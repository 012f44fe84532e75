import { ms } from './join-limit.js';

/** `pnpm bench fleet`'s JSON line. */
export interface FleetFigures {
  readonly nodes: number;
  /** The budget, as a number of nodes (the operator's `--max-unavailable` resolved for this fleet). */
  readonly maxUnavailable: number;
  /** From the new version's operator leading to the last node on the new version. */
  readonly seconds: number;
  /** (nodes ÷ maxUnavailable, rounded up: the waves) × one node's upgrade time, measured alone. */
  readonly boundSeconds: number;
  /** The most nodes cordoned or not Ready at once during the upgrade. */
  readonly maxUnavailableSeen: number;
}

export function fleetFigures(m: {
  nodes: number;
  maxUnavailable: number;
  seconds: number;
  oneNodeSeconds: number;
  maxUnavailableSeen: number;
}): FleetFigures {
  if (!(m.maxUnavailable >= 1) || !(m.nodes >= 1)) throw new Error('a fleet needs nodes and a budget ≥ 1');
  const waves = Math.ceil(m.nodes / m.maxUnavailable);
  return {
    nodes: m.nodes,
    maxUnavailable: m.maxUnavailable,
    seconds: ms(m.seconds),
    boundSeconds: ms(waves * m.oneNodeSeconds),
    maxUnavailableSeen: m.maxUnavailableSeen,
  };
}
