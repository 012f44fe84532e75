import type { OperatorRuntime } from '@wmco/operator';
import type { SimWorld } from '../world/sim-world.js';
import type { OperatorVersionOptions } from '../world/operator-version.js';

/**
 * An in-process operator that is started again whenever it loses its Lease, as the Deployment's next Pod
 * would be: a 200-node run on a busy machine lost the Lease mid-join and, never replaced, stopped there.
 * Each replacement has an identity of its own (`<identity>-<n>`); `restarts` counts them for the figures.
 */
export class LeadingOperator {
  restarts = 0;
  private stopped = false;
  private current: Promise<OperatorRuntime>;

  constructor(
    private readonly world: SimWorld,
    private readonly identity: string,
    private readonly options: OperatorVersionOptions,
    private readonly log: (line: string) => void,
  ) {
    this.current = this.launch(identity);
  }

  /** The operator now running (the latest replacement). */
  runtime(): Promise<OperatorRuntime> {
    return this.current;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await (await this.current).stop();
  }

  private launch(identity: string): Promise<OperatorRuntime> {
    const started = this.world.startOperator(identity, this.options);
    void started.then(
      (rt) => rt.done.then((why) => this.replace(why)),
      () => undefined,
    );
    return started;
  }

  private replace(why: 'lost' | 'stopped'): void {
    if (why !== 'lost' || this.stopped) return;
    this.restarts++;
    this.log(`${this.identity} lost its Lease; starting replacement ${this.restarts}`);
    this.current = this.launch(`${this.identity}-${this.restarts}`);
  }
}
