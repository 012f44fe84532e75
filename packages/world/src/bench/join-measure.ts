import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GeneratedPayload } from '@wmco/sim';
import { reapOnExit } from './child-reaper.js';
import type { BenchFile, ChildReport, JoinChildTask } from './join-child.js';

/**
 * V8 options of every measurement's process (the SSH throughput's and each join's alike). The simulated
 * hosts receive every uploaded byte into new buffers, which V8 counts as external memory; by default each
 * further 64 MB of it starts a full collection that marks the whole heap of the process (the operator, the
 * API server and the hosts: about 55 MB), some 35 times in a 10-host join. Accounting external memory
 * within the heap's global limit (a V8 option, off in Node 24) collects it by the heap's own growth rule
 * instead. It changes how often the garbage of the simulation is collected, not what the operator does;
 * the operator's image runs without it (ADR 0030).
 */
export const MEASUREMENT_V8_FLAGS: readonly string[] = ['--external-memory-accounted-in-global-limit'];

/**
 * Runs one measurement in a fresh process (join-child.ts) and returns what it printed; its errors go to this
 * process's stderr, and a failed measurement rejects.
 */
export async function inChild<T>(task: JoinChildTask): Promise<T & ChildReport> {
  const entry = fileURLToPath(new URL('./join-child.js', import.meta.url));
  const child = spawn(process.execPath, [...MEASUREMENT_V8_FLAGS, entry, JSON.stringify(task)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  reapOnExit(child);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  // 'close', not 'exit': the last line may still be in the pipe when the process exits.
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`the ${task.task} measurement failed (exit ${String(code)})`);
  return JSON.parse(out.trim().split('\n').pop() ?? '') as T & ChildReport;
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
