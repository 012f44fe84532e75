import { OPERATOR_NODE_FLAGS } from '@wmco/operator';
import { until } from '../world/world-fixture.js';
import type { ScaleOperatorArgs } from './scale-operator.js';
import { startScaleOperator, type ScaleOperator } from './scale-process.js';

/**
 * The operator of `pnpm bench soak`, in its own process (scale-operator.js) with the image entrypoint's
 * node flags, across the kills, restarts and upgrades of the day: the process running now, and the longest
 * lane wait seen by any of them.
 */
export class SoakOperator {
  private maxLaneWaitMs = 0;

  private constructor(
    private args: ScaleOperatorArgs,
    private op: ScaleOperator,
  ) {}

  static async start(args: ScaleOperatorArgs): Promise<SoakOperator> {
    return new SoakOperator(args, await startScaleOperator(args, OPERATOR_NODE_FLAGS));
  }

  get pid(): number {
    return this.op.pid;
  }

  /** Waits until the running process holds the Lease with its caches synced. */
  async leading(): Promise<void> {
    await until(
      'the operator to lead',
      async () => ((await this.op.sample()).leading ? true : undefined),
      120_000,
    );
  }

  /** Waits until the running process has finished `checks` more drift checks (one cycle: one per node). */
  async driftChecks(checks: number): Promise<void> {
    const from = (await this.op.sample()).driftChecks;
    await until(
      `${checks} drift checks`,
      async () => ((await this.op.sample()).driftChecks >= from + checks ? true : undefined),
      600_000,
      500,
    );
  }

  /** Counts lane waits from now on only (the day's, not the first joins'). */
  async resetLaneWait(): Promise<void> {
    this.maxLaneWaitMs = 0;
    await this.op.resetLaneWait();
  }

  /** The longest lane wait of this and every earlier process since the last reset (ms). */
  async laneWaitMs(): Promise<number> {
    this.maxLaneWaitMs = Math.max(this.maxLaneWaitMs, (await this.op.sample()).maxLaneWaitMs);
    return this.maxLaneWaitMs;
  }

  /** Killed as `kill -9` would (its Lease not released) and a successor started, which waits for the Lease. */
  async killAndRestart(): Promise<void> {
    await this.laneWaitMs();
    await this.op.kill();
    this.op = await startScaleOperator(this.args, OPERATOR_NODE_FLAGS);
  }

  /** Stopped (SIGTERM) and replaced by `version` with `payloadDir`: an operator upgrade. */
  async upgrade(version: string, payloadDir: string): Promise<void> {
    await this.laneWaitMs();
    await this.op.stop();
    this.args = { ...this.args, version, payloadDir };
    this.op = await startScaleOperator(this.args, OPERATOR_NODE_FLAGS);
  }

  get version(): string | undefined {
    return this.args.version;
  }

  stop(): Promise<void> {
    return this.op.stop();
  }
}
