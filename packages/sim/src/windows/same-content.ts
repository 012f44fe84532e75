import { SHARED_FROM_BYTES } from './shared-memory.js';

/** A written range of an open file. */
export interface WrittenChunk {
  readonly offset: number;
  readonly data: Buffer;
}

// Large files many simulated hosts receive (the same payload archive, fifty times) are held once: a file
// whose written bytes equal a recent one of the same size shares that buffer. Stored file buffers are never
// changed in place (every write makes a new one), so sharing is safe. Weak: a buffer no host holds is freed.
const recent = new Map<number, WeakRef<Buffer>[]>();
const PER_SIZE = 4;

/** The chunks, in offset order, when they cover [0, size) without a gap; else undefined. */
function covering(chunks: readonly WrittenChunk[], size: number): WrittenChunk[] | undefined {
  const ordered = [...chunks].sort((a, b) => a.offset - b.offset);
  let end = 0;
  for (const c of ordered) {
    if (c.offset > end) return undefined;
    end = Math.max(end, c.offset + c.data.length);
  }
  return end === size ? ordered : undefined;
}

function equalAt(known: Buffer, chunks: readonly WrittenChunk[]): boolean {
  return chunks.every(
    (c) => known.compare(c.data, 0, c.data.length, c.offset, c.offset + c.data.length) === 0,
  );
}

/**
 * A recent file buffer with exactly the bytes these chunks write (a memory comparison: no copy, no new
 * memory), or undefined. Only files of `SHARED_FROM_BYTES` or more are looked at.
 */
export function sameAsRecent(chunks: readonly WrittenChunk[], size: number): Buffer | undefined {
  if (size < SHARED_FROM_BYTES) return undefined;
  const ordered = covering(chunks, size);
  if (!ordered) return undefined;
  for (const ref of recent.get(size) ?? []) {
    const known = ref.deref();
    if (known && equalAt(known, ordered)) return known;
  }
  return undefined;
}

/** Remembers a large file buffer for `sameAsRecent` (the last few of each size). */
export function rememberContent(buffer: Buffer): void {
  if (buffer.length < SHARED_FROM_BYTES) return;
  const live = (recent.get(buffer.length) ?? []).filter((r) => r.deref() !== undefined);
  live.push(new WeakRef(buffer));
  recent.set(buffer.length, live.slice(-PER_SIZE));
}
