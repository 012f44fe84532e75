import type { OperatorRuntime } from '@wmco/operator';

/**
 * The operators a simulated world started, and those still starting: a world that stops while an
 * operator starts (its informers still syncing, its kubeconfig just written) aborts that start through
 * `hooks.stopping`, waits for it, and stops that operator too, instead of missing it and leaving it
 * running (issue 28: `wmco sim` hung in "stopping").
 */
export class OperatorStarts {
  private readonly pending = new Set<Promise<unknown>>();
  private readonly stopping = new AbortController();

  constructor(private readonly started: OperatorRuntime[]) {}

  /** Runs `start` with the world's stopping signal; the runtime it returns is stopped with the world. */
  async track(start: (stopping: AbortSignal) => Promise<OperatorRuntime>): Promise<OperatorRuntime> {
    const run = start(this.stopping.signal).then((rt) => {
      this.started.push(rt);
      return rt;
    });
    const settled = run.catch(() => undefined);
    this.pending.add(settled);
    void settled.finally(() => this.pending.delete(settled));
    const rt = await run;
    // Started after the world stopped: stop it now (its start already saw the abort).
    if (this.stopping.signal.aborted) await rt.stop();
    return rt;
  }

  /** Aborts the starts under way, waits for them, then stops every operator. */
  async stopAll(): Promise<void> {
    this.stopping.abort();
    await Promise.all([...this.pending]);
    await Promise.all(this.started.map((o) => o.stop().catch(() => undefined)));
  }
}
