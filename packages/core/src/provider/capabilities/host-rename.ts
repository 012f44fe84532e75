import { token } from '../token.js';

/** Platforms whose VMs must carry the Machine's name as their computer name before joining. */
export interface HostRename {
  /** The computer name a VM created for `machineName` must have. */
  hostnameFor(machineName: string): string;
  /**
   * True when `currentHostname` (short name or FQDN, as the host reports it) already is `target`.
   * Exact, case-insensitive comparison of the first DNS label; upstream's substring match is not kept.
   */
  matches(currentHostname: string, target: string): boolean;
}
export const HostRename = token<HostRename>('platform.host-rename');
