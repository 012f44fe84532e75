import { promisify } from 'node:util';
import { createGunzip, gzip } from 'node:zlib';
import { BLOCK, TarReader } from './tar-reader.js';

const gzipAsync = promisify(gzip);
/** zlib's output chunks while gunzipping (its default is 16 KiB): fewer, larger pieces to join. */
const GUNZIP_CHUNK = 1024 * 1024;

/**
 * The regular files of a tar archive (see `TarReader`), by entry name without a leading `./`. A damaged
 * archive (bad checksum, truncated data) throws.
 */
export function readTar(archive: Buffer): Map<string, Buffer> {
  const reader = new TarReader();
  reader.push(archive);
  return reader.end();
}

/**
 * Gunzips and reads a `.tar.gz` (see `readTar`) as a stream: zlib inflates on libuv's thread pool and the
 * tar entries are cut out of its output as it arrives, so the whole `.tar` is never held (nor joined).
 * `allocate` as for `TarReader`.
 */
export function readTarGz(
  archive: Uint8Array,
  allocate?: (size: number) => Buffer,
): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const reader = new TarReader(allocate);
    const gunzip = createGunzip({ chunkSize: GUNZIP_CHUNK });
    let failed = false;
    const fail = (err: unknown): void => {
      failed = true;
      gunzip.destroy();
      reject(err instanceof Error ? err : new Error(String(err)));
    };
    gunzip.on('data', (chunk: Buffer) => {
      if (failed) return;
      try {
        reader.push(chunk);
      } catch (err) {
        fail(err);
      }
    });
    gunzip.on('error', (err) => {
      if (!failed) fail(new Error(`not a gzip file: ${err.message}`, { cause: err }));
    });
    gunzip.on('end', () => {
      if (failed) return;
      try {
        resolve(reader.end());
      } catch (err) {
        fail(err);
      }
    });
    gunzip.end(archive);
  });
}

function header(name: string, size: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  if (Buffer.byteLength(name) > 100) throw new Error(`tar entry name too long for ustar: ${name}`);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100, 'latin1');
  h.write('0000000\0', 108, 'latin1');
  h.write('0000000\0', 116, 'latin1');
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
  // mtime 0: the archive depends only on the name and the bytes (deterministic payloads).
  h.write('00000000000\0', 136, 'latin1');
  h.write('        ', 148, 'latin1');
  h.write('0', 156, 'latin1');
  h.write('ustar\0', 257, 'latin1');
  h.write('00', 263, 'latin1');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return h;
}

/** One file as a ustar archive (as `tar -cf - <name>` writes it, with mtime 0 and owner 0). */
export function tarOf(name: string, data: Buffer): Buffer {
  const pad = (BLOCK - (data.length % BLOCK)) % BLOCK;
  return Buffer.concat([header(name, data.length), data, Buffer.alloc(pad), Buffer.alloc(2 * BLOCK)]);
}

/** One file as a `.tar.gz`, upstream's payload format. */
export function tarGzOf(name: string, data: Buffer, level = 6): Promise<Buffer> {
  return gzipAsync(tarOf(name, data), { level });
}
