import type { ServerChannel } from 'ssh2';
import { streamEndlessOutput } from './endless-output.js';
import type { HostFaults } from './host-costs.js';
import { isSilentAt } from './host-faults.js';

/** The counters an exec fault moves. */
export interface ExecFaultStats {
  execs: number;
  floodsOpen: number;
  /** Bytes the floods wrote (what the SSH window let through to the client). */
  floodBytes: number;
}

/**
 * The faults that take an exec before the host answers it: silent before the ready line (`silent`, or
 * `silentAt: 'ready'`: taken, read and never answered; the client's deadline is all that ends it) and
 * `endlessOutput` / `endlessOutputAlways` (printing without end until the client closes
 * the channel). True when a fault took the channel.
 */
export function takenByFault(channel: ServerChannel, faults: HostFaults, stats: ExecFaultStats): boolean {
  if (isSilentAt(faults, 'ready')) {
    stats.execs++;
    channel.on('data', () => undefined);
    return true;
  }
  const shape = faults.endlessOutput || faults.endlessOutputAlways;
  if (!shape) return false;
  delete faults.endlessOutput;
  stats.execs++;
  stats.floodsOpen++;
  channel.once('close', () => stats.floodsOpen--);
  streamEndlessOutput(channel, shape, (bytes) => (stats.floodBytes += bytes));
  return true;
}
