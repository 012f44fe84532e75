import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { knownContent } from './same-content.js';
import { fileBuffer, SHARED_FROM_BYTES } from './shared-memory.js';

/** Files made known content (same-content.ts), held until `forget()`. */
export interface KnownFiles {
  readonly buffers: readonly Buffer[];
  readonly forget: () => void;
}

/** The file in shared memory, or undefined when it is under 1 MiB. */
async function readLarge(path: string): Promise<Buffer | undefined> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    if (size < SHARED_FROM_BYTES) return undefined;
    const buf = fileBuffer(size);
    const { bytesRead } = await fh.read(buf, 0, size, 0);
    return bytesRead === size ? buf : undefined;
  } finally {
    await fh.close();
  }
}

async function know(paths: readonly string[]): Promise<KnownFiles> {
  const buffers: Buffer[] = [];
  for (const path of paths) {
    const buf = await readLarge(path);
    if (buf) buffers.push(buf);
  }
  return { buffers, forget: knownContent(buffers) };
}

/**
 * Reads the large files under `dir` (a payload folder: its `.tar.gz` archives) into shared memory and makes
 * them known content, so that simulated hosts receiving them hold views of these buffers from the first
 * write on (same-content.ts).
 */
export async function knowPayloadFiles(dir: string): Promise<KnownFiles> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return know(entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)));
}

/** One file made known content, as knowPayloadFiles does (nothing when it is under 1 MiB). */
export function knowFile(path: string): Promise<KnownFiles> {
  return know([path]);
}
