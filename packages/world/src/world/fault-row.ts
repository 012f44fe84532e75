import type { SimWorld } from './sim-world.js';
import type { SimWorldOptions } from './sim-world-options.js';

/** The flow a row's fault lands in. */
export type FaultPhase = 'join' | 'upgrade' | 'reboot' | 'removal';

/** One host of a world: its spec, its simulated machine and its address. */
export type MatrixHost = SimWorld['hosts']['hosts'][number];

/** What a row's fault can reach. */
export interface FaultContext {
  readonly world: SimWorld;
  /** The host the phase acts on: the one that gets the fault. */
  readonly target: MatrixHost;
  readonly logs: readonly string[];
  /** Kills the leading operator as `kill -9` would (its Lease not released) and starts its successor. */
  restartOperator(): Promise<void>;
}

/** One row of the fault matrix: a fault injected at a chosen point of one flow. */
export interface FaultRow {
  readonly name: string;
  readonly phase: FaultPhase;
  /**
   * Arms the fault; called just before the phase starts, it may wait for its point in the flow (a status,
   * a host event) before acting. The harness awaits it once the phase has started.
   */
  readonly inject: (c: FaultContext) => Promise<void>;
  /** True once the fault really happened (a row whose fault never fired proves nothing). */
  readonly fired: (c: FaultContext) => boolean;
  /** Reboots the fault itself causes on the target (a power loss); the flow must add none of its own. */
  readonly faultReboots?: number;
  readonly world?: Partial<SimWorldOptions>;
}
