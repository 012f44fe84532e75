import type { ExecutionContext } from 'ava';
import type { SimWorld } from './sim-world.js';
import { settledWithin } from './settled-within.js';
import { until } from './world-fixture.js';

/** A failure guard, not a measurement: a stop that has not ended by then never would. */
export const STOP_GUARD_MS = 60_000;

/**
 * What holds this process alive: holders servers (the API server, a host's or a VM's SSH server),
 * sockets and ref'd timers (an interval started after the stop). A stopped world must leave none of its
 * own, or a `wmco sim` process would never exit.
 */
export const holders = (): number => process.getActiveResourcesInfo().filter((r) => r !== 'Immediate').length;

/**
 * Stops the world and checks that the stop ended (within the guard), that no part overran its bound
 * (the world's bounded steps throw naming it; the operator logs `stop overran its bound`), and that
 * nothing it started is left holders, which would keep a `wmco sim` process from exiting.
 */
export async function stopsCleanly(
  t: ExecutionContext,
  world: SimWorld,
  logs: readonly string[],
  serversBefore: number,
): Promise<void> {
  const r = await settledWithin(world.stop(), STOP_GUARD_MS);
  if (r === 'late') return t.fail(`the world did not stop within ${STOP_GUARD_MS} ms`);
  t.true(r.ok, r.ok ? '' : String(r.error));
  t.deepEqual(
    logs.filter((l) => l.includes('stop overran its bound')),
    [],
    'no part of the operator overran its stop bound',
  );
  // A closed server's handle goes within a few turns of the event loop: wait for that state.
  await until('nothing the world started is left holding the process', () =>
    Promise.resolve(holders() <= serversBefore ? true : undefined),
  );
}

/** A matcher for the simulated API server's faults that counts the requests it matched. */
export function countingMatch(
  method: string,
  path: string,
): { readonly hits: () => number; readonly match: (m: string, p: string) => boolean } {
  let hits = 0;
  return {
    hits: () => hits,
    match: (m, p) => {
      const yes = m === method && p === path;
      if (yes) hits++;
      return yes;
    },
  };
}
