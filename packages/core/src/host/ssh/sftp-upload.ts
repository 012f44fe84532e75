import type { SFTPWrapper } from 'ssh2';
import { chunkReader, type UploadSource } from './chunk-reader.js';
import type { ResolvedSshOptions } from './ssh-options.js';

function call<T>(fn: (cb: (err: Error | null | undefined, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => fn((err, value) => (err ? reject(err) : resolve(value))));
}

/**
 * Writes a whole file with `sftpConcurrency` WRITE requests in flight (ssh2's write stream keeps only one,
 * which crawls on a slow link), then closes the handle.
 */
export async function sftpUpload(
  sftp: SFTPWrapper,
  source: UploadSource,
  remotePath: string,
  ctx: {
    readonly o: ResolvedSshOptions;
    readonly stats: { sftpRequests: number; bytesSent: number };
    /** Each request under its deadline (SshSession.timed). */
    readonly timed: <T>(what: string, work: Promise<T>) => Promise<T>;
  },
): Promise<void> {
  const { o, stats, timed } = ctx;
  const input = await chunkReader(source, o.sftpChunkSize);
  const handle = await timed(
    `open of ${remotePath}`,
    call<Buffer>((cb) => sftp.open(remotePath, 'w', cb)),
  );
  stats.sftpRequests++;
  let failed = true;
  try {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < input.size) {
        const position = next;
        next += o.sftpChunkSize;
        const chunk = await input.read(position, Math.min(o.sftpChunkSize, input.size - position));
        const { bytes } = chunk;
        await timed(
          `write to ${remotePath}`,
          call<void>((cb) =>
            sftp.write(handle, bytes, 0, bytes.length, position, (err) => cb(err, undefined)),
          ),
        );
        // Acknowledged: ssh2 sent the bytes and holds no reference to them (a failed write may still).
        chunk.release();
        stats.sftpRequests++;
        stats.bytesSent += bytes.length;
      }
    };
    const workers = Math.max(1, Math.min(o.sftpConcurrency, Math.ceil(input.size / o.sftpChunkSize)));
    await Promise.all(Array.from({ length: workers }, worker));
    failed = false;
  } finally {
    await input.close();
    const closing = timed(
      `close of ${remotePath}`,
      call<void>((cb) => sftp.close(handle, (err) => cb(err, undefined))),
    );
    stats.sftpRequests++;
    // After a failure the channel may be gone and never answer; do not wait for it then.
    if (failed) closing.catch(() => undefined);
    else await closing;
  }
}
