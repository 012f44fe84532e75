import type { DEFAULT_LEADER_ELECTION, Ipv4Resolver, SshHostOptions } from '@wmco/core';
import type { JoinTimings, LifecycleOptions } from '@wmco/core/internal';

/** Test and simulation hooks; production leaves them unset. */
export interface RuntimeHooks {
  readonly sshOverrides?: (address: string) => Partial<SshHostOptions>;
  readonly resolver?: Ipv4Resolver;
  readonly timings?: Partial<JoinTimings>;
  readonly leaderTiming?: typeof DEFAULT_LEADER_ELECTION;
  /** The operator version the nodes are annotated with (default: this build's); two-version tests set it. */
  readonly version?: string;
  /** Drain and retry timings of the upgrade flow (test speed). */
  readonly lifecycle?: Partial<Omit<LifecycleOptions, 'maxUnavailable' | 'operatorCondition'>>;
  /** Machine source: failed joins before a Machine is deleted, and the delay between attempts. */
  readonly machineRetry?: { readonly budget: number; readonly retryMs: number };
  /**
   * Aborted when whoever started the operator stops before `OperatorRuntime.start` returned (a simulated
   * world stopping during start-up): the start ends soon (its informers stop) and the runtime stops.
   */
  readonly stopping?: AbortSignal;
}
