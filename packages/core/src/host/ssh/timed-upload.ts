import { stat } from 'node:fs/promises';
import { HostUploadError, HostWorkAbandonedError } from '../errors.js';
import type { UploadFile } from '../windows-host.js';
import { withDeadline } from './host-deadline.js';
import type { ResolvedSshOptions } from './ssh-options.js';
import type { SshSession } from './ssh-session.js';

/** The bytes of `files`, in memory or on local disk. */
async function totalBytes(files: readonly UploadFile[]): Promise<number> {
  const sizes = await Promise.all(
    files.map(async (f) =>
      Buffer.isBuffer(f.source) ? f.source.length : (await stat(f.source.localPath)).size,
    ),
  );
  return sizes.reduce((a, b) => a + b, 0);
}

/**
 * An upload's deadline: two SFTP requests' (so a request the host never answers fails first, naming
 * itself), plus its bytes at the slowest rate allowed.
 */
export function uploadDeadlineMs(
  o: Pick<ResolvedSshOptions, 'sftpRequestTimeoutMs' | 'uploadMinBytesPerSecond'>,
  bytes: number,
): number {
  return 2 * o.sftpRequestTimeoutMs + Math.ceil((bytes / o.uploadMinBytesPerSecond) * 1000);
}

/**
 * Runs a host's whole upload (`work`) under a deadline sized by its bytes (`uploadDeadlineMs`), counted
 * from when it starts (after any wait for an upload slot). Each SFTP request keeps its own deadline; this
 * one ends a host that answers every request, only too slowly. Past it, or on an abort, the connection is
 * closed (what was sent stays staged as `.part` and is never used) and the upload fails at once.
 */
export async function timedUpload(
  session: SshSession,
  o: ResolvedSshOptions,
  files: readonly UploadFile[],
  work: () => Promise<void>,
): Promise<void> {
  const bytes = await totalBytes(files);
  const ms = uploadDeadlineMs(o, bytes);
  await withDeadline(work(), {
    ms,
    signal: o.signal,
    timeout: () =>
      new HostUploadError(
        o.address,
        `${bytes} bytes were not sent within ${ms} ms (slower than ${o.uploadMinBytesPerSecond} bytes/s); the connection was closed`,
      ),
    abandoned: () => new HostWorkAbandonedError(o.address, 'the upload'),
    giveUp: () => session.close(),
  });
}
