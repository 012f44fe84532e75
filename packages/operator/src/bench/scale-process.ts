import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { ScaleOperatorArgs } from './scale-operator.js';

/** The operator process of `pnpm bench scale` (scale-operator.js), by its pid. */
export interface ScaleOperator {
  readonly pid: number;
  /** Drift checks it finished so far. */
  driftChecks(): Promise<number>;
  /** SIGTERM, then SIGKILL after 10 s; resolves once it exited. */
  stop(): Promise<void>;
}

export async function startScaleOperator(args: ScaleOperatorArgs): Promise<ScaleOperator> {
  const entry = fileURLToPath(new URL('./scale-operator.js', import.meta.url));
  const child = spawn(process.execPath, [entry, JSON.stringify(args)], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  const [first] = (await Promise.race([once(child, 'message'), exited.then(() => ['exited'])])) as unknown[];
  if (first !== 'started') throw new Error('the operator process exited before it started');
  const pid = child.pid!;
  return {
    pid,
    driftChecks: async () => {
      const reply = once(child, 'message');
      child.send('sample');
      const [m] = (await reply) as [{ driftChecks: number }];
      return m.driftChecks;
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
