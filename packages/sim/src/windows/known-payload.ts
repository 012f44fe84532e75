import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { knownContent } from './same-content.js';
import { fileBuffer, SHARED_FROM_BYTES } from './shared-memory.js';

/**
 * Reads the large files under `dir` (a payload folder: its `.tar.gz` archives) into shared memory and makes
 * them known content, so that simulated hosts receiving them hold views of these buffers from the first
 * write on (same-content.ts). The caller keeps the returned buffers for as long as that should last.
 */
export async function knowPayloadFiles(dir: string): Promise<Buffer[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const buffers: Buffer[] = [];
  for (const e of entries) {
    const known = e.isFile() ? await knowFile(join(e.parentPath, e.name)) : undefined;
    if (known) buffers.push(known);
  }
  return buffers;
}

/** One file made known content (as knowPayloadFiles), or undefined when it is under 1 MiB. */
export async function knowFile(path: string): Promise<Buffer | undefined> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    if (size < SHARED_FROM_BYTES) return undefined;
    const buf = fileBuffer(size);
    const { bytesRead } = await fh.read(buf, 0, size, 0);
    if (bytesRead !== size) return undefined;
    knownContent([buf]);
    return buf;
  } finally {
    await fh.close();
  }
}
