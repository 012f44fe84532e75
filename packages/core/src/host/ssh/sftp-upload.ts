import { open, type FileHandle } from 'node:fs/promises';
import type { SFTPWrapper } from 'ssh2';
import type { ResolvedSshOptions } from './ssh-options.js';

/** Bytes to upload: in memory or in a local file. */
export type UploadSource = Buffer | { readonly localPath: string };

interface Reader {
  readonly size: number;
  read(position: number, length: number): Promise<Buffer>;
  close(): Promise<void>;
}

async function reader(source: UploadSource, chunkSize: number): Promise<Reader> {
  if (Buffer.isBuffer(source)) {
    return {
      size: source.length,
      read: (p, l) => Promise.resolve(source.subarray(p, p + l)),
      close: () => Promise.resolve(),
    };
  }
  const fh: FileHandle = await open(source.localPath, 'r');
  const { size } = await fh.stat();
  // Read blocks of 8 chunks and hand out slices, so a chunk costs no system call of its own; chunks start
  // at multiples of the chunk size, so none straddles two blocks. The next block is read ahead, so a
  // chunk rarely waits for the disk.
  const BLOCK = chunkSize * 8;
  const blocks = new Map<number, Promise<Buffer>>();
  const load = (index: number): Promise<Buffer> => {
    let b = blocks.get(index);
    if (b === undefined) {
      const buf = Buffer.allocUnsafe(Math.max(0, Math.min(BLOCK, size - index * BLOCK)));
      b = fh.read(buf, 0, buf.length, index * BLOCK).then(({ bytesRead }) => buf.subarray(0, bytesRead));
      blocks.set(index, b);
      blocks.delete(index - 2);
    }
    return b;
  };
  const block = (index: number): Promise<Buffer> => {
    if ((index + 1) * BLOCK < size) void load(index + 1).catch(() => undefined);
    return load(index);
  };
  return {
    size,
    read: async (p, l) => {
      const first = Math.floor(p / BLOCK);
      if (Math.floor((p + l - 1) / BLOCK) !== first) {
        const buf = Buffer.allocUnsafe(l);
        const { bytesRead } = await fh.read(buf, 0, l, p);
        return buf.subarray(0, bytesRead);
      }
      const b = await block(first);
      return b.subarray(p - first * BLOCK, p - first * BLOCK + l);
    },
    close: () => fh.close(),
  };
}

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
  ctx: { readonly o: ResolvedSshOptions; readonly stats: { sftpRequests: number; bytesSent: number } },
): Promise<void> {
  const { o, stats } = ctx;
  const input = await reader(source, o.sftpChunkSize);
  const handle = await call<Buffer>((cb) => sftp.open(remotePath, 'w', cb));
  stats.sftpRequests++;
  let failed = true;
  try {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < input.size) {
        const position = next;
        next += o.sftpChunkSize;
        const chunk = await input.read(position, Math.min(o.sftpChunkSize, input.size - position));
        await call<void>((cb) =>
          sftp.write(handle, chunk, 0, chunk.length, position, (err) => cb(err, undefined)),
        );
        stats.sftpRequests++;
        stats.bytesSent += chunk.length;
      }
    };
    const workers = Math.max(1, Math.min(o.sftpConcurrency, Math.ceil(input.size / o.sftpChunkSize)));
    await Promise.all(Array.from({ length: workers }, worker));
    failed = false;
  } finally {
    await input.close();
    const closing = call<void>((cb) => sftp.close(handle, (err) => cb(err, undefined)));
    stats.sftpRequests++;
    // After a failure the channel may be gone and never answer; do not wait for it then.
    if (failed) closing.catch(() => undefined);
    else await closing;
  }
}
