import { OPERATOR_NODE_FLAGS } from '@wmco/operator';
import { until } from '../world/world-fixture.js';
import type { ScaleOperatorArgs } from './scale-operator.js';
import { startScaleOperator, type OperatorSample, type ScaleOperator } from './scale-process.js';

/**
 * The operator of `pnpm bench soak` and `scale`, in its own process (scale-operator.js) with the image
 * entrypoint's node flags (or others given), across the kills, restarts and upgrades of the day: the process running now, and the longest
 * lane wait seen by any of them. A process that exits on its own (a crash, a lost Lease) is started again,
 * as its Deployment would, and counted.
 */
export class SoakOperator {
  private maxLaneWaitMs = 0;
  /** Processes that exited without the bench asking. */
  unexpectedExits = 0;
  private replacing: Promise<void> = Promise.resolve();
  private stopping = false;
  /** Processes the bench itself ends (a kill, an upgrade): their exit is expected. */
  private readonly ending = new WeakSet<ScaleOperator>();

  private constructor(
    private args: ScaleOperatorArgs,
    private op: ScaleOperator,
    private readonly log: (line: string) => void,
    private readonly nodeOptions: readonly string[],
  ) {
    this.supervise(op);
  }

  static async start(
    args: ScaleOperatorArgs,
    log: (line: string) => void,
    nodeOptions: readonly string[] = OPERATOR_NODE_FLAGS,
  ): Promise<SoakOperator> {
    return new SoakOperator(args, await startScaleOperator(args, nodeOptions), log, nodeOptions);
  }

  /** The running process's drift checks and memory (see `ScaleOperator.sample`). */
  async sample(): Promise<OperatorSample> {
    return (await this.running()).sample();
  }

  async heapSnapshot(): Promise<string> {
    return (await this.running()).heapSnapshot();
  }

  /** The pid of the process running now (once a replacement under way has started). */
  async pid(): Promise<number> {
    return (await this.running()).pid;
  }

  get version(): string | undefined {
    return this.args.version;
  }

  private supervise(op: ScaleOperator): void {
    void op.exited.then(() => {
      if (this.ending.has(op) || this.stopping) return;
      this.unexpectedExits++;
      this.log(`  the operator process ${op.pid} exited on its own; started again (as its Deployment would)`);
      void this.replace(() => Promise.resolve());
    });
  }

  /** Ends the running process with `end` and starts the next one with the current args. */
  private replace(end: (op: ScaleOperator) => Promise<void>): Promise<void> {
    this.replacing = this.replacing.then(async () => {
      const old = this.op;
      this.ending.add(old);
      await end(old);
      this.op = await startScaleOperator(this.args, this.nodeOptions);
      this.supervise(this.op);
    });
    return this.replacing;
  }

  private async running(): Promise<ScaleOperator> {
    await this.replacing;
    return this.op;
  }

  /** Waits until the running process has finished `checks` more drift checks (one cycle: one per node). */
  async driftChecks(checks: number): Promise<void> {
    const from = (await (await this.running()).sample()).driftChecks;
    await until(
      `${checks} drift checks`,
      async () => ((await (await this.running()).sample()).driftChecks >= from + checks ? true : undefined),
      600_000,
      500,
    );
  }

  /** Counts lane waits from now on only (the day's, not the first joins'). */
  async resetLaneWait(): Promise<void> {
    this.maxLaneWaitMs = 0;
    await (await this.running()).resetLaneWait();
  }

  /** The longest lane wait of this and every earlier process since the last reset (ms). */
  async laneWaitMs(): Promise<number> {
    const op = await this.running();
    const seen = await op.sample().then(
      (s) => s.maxLaneWaitMs,
      () => 0,
    );
    this.maxLaneWaitMs = Math.max(this.maxLaneWaitMs, seen);
    return this.maxLaneWaitMs;
  }

  /** Killed as `kill -9` would (its Lease not released) and a successor started, which waits for the Lease. */
  async killAndRestart(): Promise<void> {
    await this.laneWaitMs();
    await this.replace((op) => op.kill());
  }

  /** Stopped (SIGTERM) and replaced by `version` with `payloadDir`: an operator upgrade. */
  async upgrade(version: string, payloadDir: string): Promise<void> {
    await this.laneWaitMs();
    this.args = { ...this.args, version, payloadDir };
    await this.replace((op) => op.stop());
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await (await this.running()).stop();
  }
}
