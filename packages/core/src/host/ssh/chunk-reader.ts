import { open, type FileHandle } from 'node:fs/promises';
import { uploadBlocks, type BlockPool } from './block-pool.js';

/** Bytes to upload: in memory or in a local file. */
export type UploadSource = Buffer | { readonly localPath: string };

/** A chunk of the source, and the call that says it was sent and acknowledged (its bytes may be reused). */
export interface Chunk {
  readonly bytes: Buffer;
  release(): void;
}

export interface ChunkReader {
  readonly size: number;
  /** The chunk at `position`; each chunk of an upload is read once and released once. */
  read(position: number, length: number): Promise<Chunk>;
  close(): Promise<void>;
}

const nothing = (): void => undefined;

interface Block {
  readonly bytes: Promise<Buffer>;
  /** One chunk of the block was released; the last one gives the block back. */
  release(): void;
}

/**
 * Reads `source` in chunks of `chunkSize` (positions at multiples of it). A file is read in blocks of 8
 * chunks handed out as slices, so a chunk costs no system call of its own and none straddles two blocks; the
 * next block is read ahead, so a chunk rarely waits for the disk. A block goes back to `pool` once each of
 * its chunks was released.
 */
export async function chunkReader(
  source: UploadSource,
  chunkSize: number,
  pool: BlockPool = uploadBlocks,
): Promise<ChunkReader> {
  if (Buffer.isBuffer(source)) {
    return {
      size: source.length,
      read: (p, l) => Promise.resolve({ bytes: source.subarray(p, p + l), release: nothing }),
      close: () => Promise.resolve(),
    };
  }
  const fh: FileHandle = await open(source.localPath, 'r');
  const { size } = await fh.stat();
  const BLOCK = chunkSize * 8;
  const blocks = new Map<number, Block>();
  const load = (index: number): Block => {
    const known = blocks.get(index);
    if (known) return known;
    const length = Math.max(0, Math.min(BLOCK, size - index * BLOCK));
    // Only whole blocks are pooled: a small file (or a large one's last block) gets memory of its size.
    const pooled = length === BLOCK;
    const whole = pooled ? pool.take(BLOCK) : Buffer.allocUnsafe(length);
    const chunks = Math.ceil(length / chunkSize);
    let released = 0;
    const block: Block = {
      bytes: fh.read(whole, 0, length, index * BLOCK).then(({ bytesRead }) => whole.subarray(0, bytesRead)),
      release: () => {
        if (++released < chunks) return;
        blocks.delete(index);
        if (pooled) pool.give(whole);
      },
    };
    // A failed read is not kept (its block is left to the collector); the chunk that waits on it fails.
    block.bytes.catch(() => blocks.delete(index));
    blocks.set(index, block);
    return block;
  };
  return {
    size,
    read: async (p, l) => {
      const first = Math.floor(p / BLOCK);
      if (Math.floor((p + l - 1) / BLOCK) !== first) {
        const buf = Buffer.allocUnsafe(l);
        const { bytesRead } = await fh.read(buf, 0, l, p);
        return { bytes: buf.subarray(0, bytesRead), release: nothing };
      }
      if ((first + 1) * BLOCK < size) void load(first + 1).bytes.catch(() => undefined);
      const block = load(first);
      const bytes = await block.bytes;
      let released = false;
      return {
        bytes: bytes.subarray(p - first * BLOCK, p - first * BLOCK + l),
        release: () => {
          if (released) return;
          released = true;
          block.release();
        },
      };
    },
    close: () => fh.close(),
  };
}
