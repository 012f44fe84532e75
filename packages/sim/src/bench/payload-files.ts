import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface BenchFile {
  readonly name: string;
  readonly localPath: string;
  readonly sha256: string;
  readonly size: number;
}

/** Writes random files of the given sizes to a temp folder and hashes them. */
export async function makePayload(
  sizes: Readonly<Record<string, number>>,
): Promise<{ files: BenchFile[]; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'wmco-bench-'));
  const files: BenchFile[] = [];
  for (const [name, size] of Object.entries(sizes)) {
    const localPath = join(dir, name);
    const fh = await open(localPath, 'w');
    const hash = createHash('sha256');
    for (let written = 0; written < size;) {
      const chunk = randomBytes(Math.min(8 * 2 ** 20, size - written));
      hash.update(chunk);
      await fh.write(chunk);
      written += chunk.length;
    }
    await fh.close();
    files.push({ name, localPath, sha256: hash.digest('hex'), size });
  }
  return { files, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
