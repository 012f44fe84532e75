import { SHARED_FROM_BYTES } from './shared-memory.js';

/** A written range of an open file. */
export interface WrittenChunk {
  readonly offset: number;
  readonly data: Buffer;
}

// Large files many simulated hosts receive (the same payload archive, fifty times) are held once: a file
// whose written bytes equal a recent one of the same size shares that buffer. Stored file buffers are never
// changed in place (every write makes a new one), so sharing is safe. Weak: a buffer no host holds is freed.
// While such a file is still arriving, each write equal to a known buffer's bytes at its offset is kept as
// a view of that buffer (sharedView), not as the packet it came in: fifty hosts receiving a 45 MB archive
// would otherwise hold 2 GB of packets until their uploads close, and the garbage collector of the one
// process that runs the operator and the whole simulated world would keep marking them. A world that knows
// the payload its hosts will receive makes it known beforehand (knownContent).
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

/** Whether `data` holds `known`'s bytes at `offset` (nothing to compare when it is a view of them). */
function sameBytes(known: Buffer, offset: number, data: Buffer): boolean {
  if (offset + data.length > known.length) return false;
  if (data.buffer === known.buffer && data.byteOffset === known.byteOffset + offset) return true;
  return known.compare(data, 0, data.length, offset, offset + data.length) === 0;
}

function equalAt(known: Buffer, chunks: readonly WrittenChunk[]): boolean {
  return chunks.every((c) => sameBytes(known, c.offset, c.data));
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

// Known content is held here (strongly) until its holder forgets it; recent files only weakly.
const held = new Set<Buffer>();

/**
 * Content the simulated hosts will likely receive (the world's payload files), remembered like a file
 * just written: uploads of the same bytes share it from their first write. Held until the returned
 * function is called.
 */
export function knownContent(buffers: readonly Buffer[]): () => void {
  for (const b of buffers) {
    held.add(b);
    rememberContent(b);
  }
  return () => {
    for (const b of buffers) held.delete(b);
  };
}

/** An open file's match: a remembered buffer, none (null), or not looked for yet. */
export interface ArrivingFile {
  known?: Buffer | null;
}

/**
 * The bytes to keep for a write: a view of a remembered large buffer that holds these bytes at `offset`
 * (looked for at the file's first write of 4 KiB or more, then kept while the file is open), else `data`.
 * Either way the file's content is the same.
 */
export function sharedView(file: ArrivingFile, offset: number, data: Buffer): Buffer {
  if (file.known === undefined && data.length >= 4096) {
    file.known = null;
    for (const refs of recent.values()) {
      const hit = refs.map((r) => r.deref()).find((b) => b !== undefined && sameBytes(b, offset, data));
      if (hit) {
        file.known = hit;
        break;
      }
    }
  }
  const known = file.known;
  return known && sameBytes(known, offset, data) ? known.subarray(offset, offset + data.length) : data;
}

/** What a write keeps of `data`, which is valid only during its event: a view of known bytes, or a copy. */
export function keptBytes(file: ArrivingFile, offset: number, data: Buffer): Buffer {
  const view = sharedView(file, offset, data);
  return view === data ? Buffer.from(data) : view;
}
