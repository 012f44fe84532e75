import type { Command } from 'commander';
import type { HostLimits } from '../runtime/host-limits-config.js';

/** `wmco run`'s host deadline and output flags, as commander hands them over (strings). */
export interface HostLimitFlags {
  hostHandshakeTimeout?: string;
  hostRequestTimeout?: string;
  hostApplyTimeout?: string;
  hostApplyStepTimeout?: string;
  hostServiceStepTimeout?: string;
  hostUploadMinRate?: string;
  hostOutputLimit?: string;
  hostSessionOutputLimit?: string;
}

/** Adds the host deadline and output flags (seconds and bytes; unset: the defaults in docs/byoh.md). */
export function hostLimitOptions(cmd: Command): Command {
  return cmd
    .option('--host-handshake-timeout <seconds>', 'one SSH handshake attempt (default 20)')
    .option(
      '--host-request-timeout <seconds>',
      "each step a host answers in seconds: the module's ready line, an SFTP request, an observe (default 60)",
    )
    .option('--host-apply-timeout <seconds>', 'the longest one apply or deconfigure may take (default 900)')
    .option('--host-apply-step-timeout <seconds>', "an apply's allowance per step that writes (default 30)")
    .option(
      '--host-service-step-timeout <seconds>',
      "an apply's allowance per service started or stopped, or script run (default 180)",
    )
    .option(
      '--host-upload-min-rate <bytes-per-second>',
      "the slowest upload allowed; sizes an upload's deadline (default 1048576)",
    )
    .option('--host-output-limit <bytes>', 'the most a host may print for one command (default 8388608)')
    .option(
      '--host-session-output-limit <bytes>',
      'the most a host may print in one session, all commands together (default 67108864)',
    );
}

const seconds = (v: string | undefined): number | undefined =>
  v === undefined ? undefined : Number(v) * 1000;
const count = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));

/** The flags given, as the config's `hostLimits` (validated with the rest of the config). */
export function hostLimitsFromFlags(f: HostLimitFlags): HostLimits {
  const limits: Record<string, number | undefined> = {
    handshakeTimeoutMs: seconds(f.hostHandshakeTimeout),
    requestTimeoutMs: seconds(f.hostRequestTimeout),
    applyTimeoutMs: seconds(f.hostApplyTimeout),
    applyStepTimeoutMs: seconds(f.hostApplyStepTimeout),
    serviceStepTimeoutMs: seconds(f.hostServiceStepTimeout),
    uploadMinBytesPerSecond: count(f.hostUploadMinRate),
    maxOutputBytes: count(f.hostOutputLimit),
    maxSessionOutputBytes: count(f.hostSessionOutputLimit),
  };
  return Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined));
}
