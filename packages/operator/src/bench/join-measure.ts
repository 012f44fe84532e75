import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GeneratedPayload } from '@wmco/sim';
import type { BenchFile, JoinChildTask } from './join-child.js';

/**
 * Runs one measurement in a fresh process (join-child.ts) and returns what it printed; its errors go to this
 * process's stderr, and a failed measurement rejects.
 */
export async function inChild<T>(task: JoinChildTask): Promise<T & { peakRssMiB: number }> {
  const entry = fileURLToPath(new URL('./join-child.js', import.meta.url));
  const child = spawn(process.execPath, [entry, JSON.stringify(task)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  // 'close', not 'exit': the last line may still be in the pipe when the process exits.
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`the ${task.task} measurement failed (exit ${String(code)})`);
  return JSON.parse(out.trim().split('\n').pop() ?? '') as T & { peakRssMiB: number };
}

/** The payload's largest archive: what the SSH throughput is measured with. */
export function largestArchive(payload: GeneratedPayload): BenchFile {
  const largest = [...payload.files].sort((a, b) => b.compressedBytes - a.compressedBytes)[0]!;
  return {
    name: largest.name,
    localPath: join(payload.dir, largest.archive),
    sha256: largest.sha256,
    size: largest.compressedBytes,
  };
}
