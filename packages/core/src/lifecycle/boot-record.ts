import type { HostState } from '../host/protocol/index.js';

/**
 * How far apart two readings of `Win32_OperatingSystem.LastBootUpTime` may be without a reboot, for a record
 * an operator from before ADR 0032 wrote (a boot time, not a boot id). The reading is the clock minus the
 * uptime, so it moves with every clock correction; two minutes is more than the drift seen after a time
 * sync, and less than any boot-to-reboot interval of a node under maintenance (a join takes longer).
 */
export const LEGACY_BOOT_TOLERANCE_MS = 120_000;

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T/;

/** What the lifecycle-boot annotation records of a host: its boot id (ADR 0032). */
export function bootRecord(state: Pick<HostState, 'bootId'>): string {
  return state.bootId;
}

/**
 * Whether the host booted since `recorded` was written. A boot id is compared as it is; a boot time left
 * by an older operator is compared with `LEGACY_BOOT_TOLERANCE_MS`, never as a string.
 */
export function hostBootedSince(
  recorded: string,
  state: Pick<HostState, 'bootId' | 'lastBootTime'>,
): boolean {
  if (!ISO_TIME.test(recorded)) return recorded !== state.bootId;
  const then = Date.parse(recorded);
  const now = Date.parse(state.lastBootTime);
  if (Number.isNaN(then) || Number.isNaN(now)) return recorded !== state.lastBootTime;
  return Math.abs(now - then) > LEGACY_BOOT_TOLERANCE_MS;
}
