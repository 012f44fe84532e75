import type { SimWorld } from './sim-world.js';
import { wmcoCli, type CliRun } from './wmco-cli.js';

export type PlanRun = CliRun;

/** `wmco plan ...` in-process against the world, with the world's payload, as a user runs it. */
export function wmcoPlan(world: SimWorld, ...args: string[]): Promise<PlanRun> {
  return wmcoCli(world, 'plan', '--payload', world.payloadDir, ...args);
}
