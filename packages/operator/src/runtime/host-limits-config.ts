import type { SshHostOptions } from '@wmco/core';
import { z } from 'zod';

const ms = z.number().int().min(100);
const bytes = z
  .number()
  .int()
  .min(64 * 1024);

/**
 * Deadlines and output bounds of every host operation (issue 28), each optional (unset: the SSH adapter's
 * default, ssh-options.ts). Times in milliseconds.
 */
export const hostLimitsSchema = z.object({
  /** One SSH handshake attempt; a host that takes the connection and stays silent is tried twice (20 s). */
  handshakeTimeoutMs: ms.optional(),
  /** Each step a host answers in seconds: the module's ready line, one SFTP request, an observe (60 s). */
  requestTimeoutMs: ms.optional(),
  /** The longest an apply or deconfigure may take, whatever its steps (15 min: a feature install). */
  applyTimeoutMs: ms.optional(),
  /** An apply's allowance per step that only writes (30 s). */
  applyStepTimeoutMs: ms.optional(),
  /** An apply's allowance per service started or stopped, or script run (3 min). */
  serviceStepTimeoutMs: ms.optional(),
  /** The slowest upload allowed, bytes per second: sizes an upload's deadline (1 MiB/s). */
  uploadMinBytesPerSecond: z.number().int().min(1024).optional(),
  /** The most a host may print for one command (8 MiB). */
  maxOutputBytes: bytes.optional(),
  /** The most a host may print in one module session, every command together (64 MiB). */
  maxSessionOutputBytes: bytes.optional(),
});
export type HostLimits = z.infer<typeof hostLimitsSchema>;

/** The SSH adapter's options for `limits` (only those set). */
export function sshLimits(limits: HostLimits = {}): Partial<SshHostOptions> {
  const quick = limits.requestTimeoutMs;
  const pairs: [keyof SshHostOptions, number | undefined][] = [
    ['readyTimeoutMs', limits.handshakeTimeoutMs],
    ['quickCommandTimeoutMs', quick],
    ['sessionStartTimeoutMs', quick],
    ['sftpRequestTimeoutMs', quick],
    ['commandTimeoutMs', limits.applyTimeoutMs],
    ['applyStepTimeoutMs', limits.applyStepTimeoutMs],
    ['serviceStepTimeoutMs', limits.serviceStepTimeoutMs],
    ['uploadMinBytesPerSecond', limits.uploadMinBytesPerSecond],
    ['maxOutputBytes', limits.maxOutputBytes],
    ['maxSessionOutputBytes', limits.maxSessionOutputBytes],
  ];
  const set: Record<string, number | undefined> = Object.fromEntries(
    pairs.filter(([, v]) => v !== undefined),
  );
  return set;
}
