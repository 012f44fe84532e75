import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { OPERATOR_MALLOC_ENV } from '@wmco/operator';
import { reapOnExit } from './child-reaper.js';
import type { ScaleOperatorArgs } from './scale-operator.js';

/** The operator process of `pnpm bench scale` and `join` (scale-operator.js), by its pid. */
export interface ScaleOperator {
  readonly pid: number;
  /** Drift checks it finished so far, and its memory as V8 sees it. */
  sample(): Promise<OperatorSample>;
  /** Writes a heap snapshot in the operator's working directory; its file name. */
  heapSnapshot(): Promise<string>;
  /** Sets the longest lane wait of `sample` back to 0. */
  resetLaneWait(): Promise<void>;
  /** SIGTERM, then SIGKILL after 10 s; resolves once it exited. */
  stop(): Promise<void>;
  /** Resolves once the process has exited, whatever ended it. */
  readonly exited: Promise<void>;
  /** SIGKILL (as `kill -9`: its Lease is not released); resolves once it exited. */
  kill(): Promise<void>;
}

export interface OperatorSample {
  readonly driftChecks: number;
  readonly memory: NodeJS.MemoryUsage;
  /** It holds the Lease and its caches have synced: it acts on what it sees. */
  readonly leading: boolean;
  /** The longest wait of an instances-queue key for its lane since the start or the last reset (ms). */
  readonly maxLaneWaitMs: number;
}

/** Sends `ask` and resolves with the first reply that has `key`; rejects if the process has exited. */
function ask<T>(child: ChildProcess, question: string, key: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const gone = (): void => {
      child.off('message', on);
      reject(new Error(`the operator process ${child.pid} exited before it answered '${question}'`));
    };
    const on = (m: unknown): void => {
      if (typeof m !== 'object' || m === null || !(key in m)) return;
      child.off('message', on);
      child.off('exit', gone);
      resolve(m as T);
    };
    if (!child.connected) return gone();
    child.on('message', on);
    child.once('exit', gone);
    child.send(question);
  });
}

/** `nodeOptions`: V8/Node flags for the operator process (e.g. `--max-old-space-size=160`). */
export async function startScaleOperator(
  args: ScaleOperatorArgs,
  nodeOptions: readonly string[] = [],
): Promise<ScaleOperator> {
  const entry = fileURLToPath(new URL('./scale-operator.js', import.meta.url));
  const child = spawn(process.execPath, [...nodeOptions, entry, JSON.stringify(args)], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    // The image's malloc settings (Containerfile ENV), so the bench measures what the image runs.
    env: { ...process.env, ...OPERATOR_MALLOC_ENV },
  });
  reapOnExit(child);
  const exited = once(child, 'exit');
  const [first] = (await Promise.race([once(child, 'message'), exited.then(() => ['exited'])])) as unknown[];
  if (first !== 'started') throw new Error('the operator process exited before it started');
  const pid = child.pid!;
  return {
    pid,
    sample: () => ask<OperatorSample>(child, 'sample', 'driftChecks'),
    heapSnapshot: async () =>
      (await ask<{ heapSnapshot: string }>(child, 'heap-snapshot', 'heapSnapshot')).heapSnapshot,
    exited: exited.then(() => undefined),
    resetLaneWait: async () => void (await ask(child, 'reset-lane-wait', 'laneWaitReset')),
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
    },
  };
}
