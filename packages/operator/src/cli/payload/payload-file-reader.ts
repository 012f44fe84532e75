import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { list } from 'tar';

/** A payload file as the host will hold it: the SHA-256 of its uncompressed bytes, and the bytes if kept. */
export interface UncompressedFile {
  readonly sha256: string;
  readonly bytes?: Buffer;
}

async function fromPlain(path: string, keep: boolean): Promise<UncompressedFile> {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    if (keep) chunks.push(chunk);
  }
  return { sha256: hash.digest('hex'), ...(keep ? { bytes: Buffer.concat(chunks) } : {}) };
}

/** The file called `name` inside a `.tar.gz` (upstream's image holds one file per archive). */
async function fromArchive(path: string, name: string, keep: boolean): Promise<UncompressedFile> {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let found = 0;
  await list({
    file: path,
    strict: true,
    onReadEntry: (entry) => {
      if (entry.type !== 'File' || basename(entry.path) !== name) return;
      found += 1;
      entry.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        if (keep) chunks.push(chunk);
      });
    },
  });
  if (found !== 1) throw new Error(`the archive holds ${found} files named ${name}, not one`);
  return { sha256: hash.digest('hex'), ...(keep ? { bytes: Buffer.concat(chunks) } : {}) };
}

/**
 * Hashes (and, with `keep`, returns) the uncompressed content of a payload file: `path` itself, or the
 * entry `name` of the archive when `path` ends in `.tar.gz`. A damaged archive throws.
 */
export function readUncompressed(path: string, name: string, keep = false): Promise<UncompressedFile> {
  return path.endsWith('.tar.gz') ? fromArchive(path, name, keep) : fromPlain(path, keep);
}
