import type { ServerChannel } from 'ssh2';
import { streamEndlessOutput } from './endless-output.js';
import type { HostFaults } from './host-costs.js';

/** The counters an exec fault moves. */
export interface ExecFaultStats {
  execs: number;
  floodsOpen: number;
}

/**
 * The faults that take an exec before the host answers it: `silent` (taken, read and never answered: the
 * client's deadline is all that ends it) and `endlessOutput` (printing without end until the client closes
 * the channel). True when a fault took the channel.
 */
export function takenByFault(channel: ServerChannel, faults: HostFaults, stats: ExecFaultStats): boolean {
  if (faults.silent) {
    stats.execs++;
    channel.on('data', () => undefined);
    return true;
  }
  if (!faults.endlessOutput) return false;
  const shape = faults.endlessOutput;
  delete faults.endlessOutput;
  stats.execs++;
  stats.floodsOpen++;
  channel.once('close', () => stats.floodsOpen--);
  streamEndlessOutput(channel, shape);
  return true;
}
