import { atPhase } from './fault-points.js';
import type { FaultContext, FaultRow } from './fault-row.js';
import { usurpLease } from './lease-usurp.js';

const lost = new WeakSet<FaultContext>();

/**
 * The Lease lost while the process lives (issue 28, item 3): mid-join, another holder is written into the
 * Lease. The leader's term ends 'lost' (its host steps are fenced and aborted); the process is then
 * replaced, as `wmco run` exits 1 and its pod restarts, and the successor finishes the join once the
 * other holder's Lease has expired.
 */
export const LEASE_LOST_ROW: FaultRow = {
  name: 'join: Lease lost to another holder mid-join',
  phase: 'join',
  inject: async (c) => {
    await atPhase(c, 'Configuring');
    const leader = c.world.operators.at(-1);
    await usurpLease(c.world, 'wmco-usurper', 2);
    if ((await leader?.done) === 'lost') lost.add(c);
    await c.restartOperator();
  },
  fired: (c) => lost.has(c),
};
