import type { KubeConfig } from '@kubernetes/client-node';
import { CoreV1Api, CustomObjectsApi, VersionApi } from '@kubernetes/client-node';
import {
  kubernetesVersionProblem,
  networkProblems,
  readClusterFacts,
  reportRefusedStart,
  type ClusterFacts,
} from '@wmco/core/internal';
import {
  createWmcoCore,
  runLeadership,
  systemClock,
  type EventRecorder,
  type Logger,
  type WmcoControllers,
  DEFAULT_LEADER_ELECTION,
} from '@wmco/core';
import { type DependencyContainer, type WmcoProvider } from '@wmco/core/provider';
import type { OperatorConfig } from './operator-config.js';
import type { OperatorMetrics } from './metrics.js';
import type { Redactor } from './redactor.js';
import type { RuntimeHooks } from './runtime-hooks.js';
import { loadKubeConfig } from './load-kubeconfig.js';
import { WMCO_VERSION } from '../cli/version-command.js';
import { operatorElector } from './operator-elector.js';
import { controllersOptions } from './controllers-options.js';
import { boundedStop } from './bounded-stop.js';
import { aborted, LeadershipTerm } from './leadership-term.js';
import { recordUnsupportedCluster } from './unsupported-cluster-event.js';
export type { RuntimeHooks } from './runtime-hooks.js';

export interface RuntimeParts {
  readonly config: OperatorConfig;
  readonly providers: readonly WmcoProvider[];
  readonly container: DependencyContainer;
  readonly logger: Logger;
  readonly redactor: Redactor;
  readonly metrics: OperatorMetrics;
  readonly hooks?: RuntimeHooks;
}

/** A fatal start-up problem: printed and exit 1, as upstream exits on invalid cluster configuration. */
export class StartupError extends Error {}

/**
 * The running operator: validates the cluster, selects the platform provider, builds the controllers
 * with `createWmcoCore` (@wmco/core) and runs them while it holds the leader Lease. `stop()` steps down, waits for in-flight work, and
 * releases the Lease.
 */
export class OperatorRuntime {
  private readonly stopping = new AbortController();
  private controllers: WmcoControllers | undefined;
  private leadership: Promise<'lost' | 'stopped'> | undefined;
  leading = false;
  /** How many times this operator started its controllers (once per leadership term); for tests. */
  controllerStarts = 0;
  private killed = false;
  private readonly term = new LeadershipTerm(() => this.controllers);

  private constructor(
    private readonly p: RuntimeParts,
    private readonly kc: KubeConfig,
  ) {}

  static async start(p: RuntimeParts): Promise<OperatorRuntime> {
    const rt = new OperatorRuntime(p, loadKubeConfig(p.config));
    p.hooks?.stopping?.addEventListener('abort', () => void rt.stop(), { once: true });
    await rt.begin();
    return rt;
  }

  /** What `/metrics` serves. */
  get metrics(): OperatorMetrics {
    return this.p.metrics;
  }

  get synced(): boolean {
    return !this.leading || (this.controllers?.synced ?? false);
  }

  /** Resolves when leadership ends: 'lost' means the process should exit and restart. */
  get done(): Promise<'lost' | 'stopped'> {
    return this.leadership ?? Promise.resolve('stopped');
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    this.term.fence.abort();
    const parts = [['leadership', () => this.done] as const, ['controllers', () => this.term.ended] as const];
    await boundedStop(parts, this.p.logger);
  }

  /**
   * Simulates a crash, for tests: in-flight work is abandoned at its next step and the Lease is NOT
   * released, so a successor must wait for it to expire, as after `kill -9`.
   */
  async kill(): Promise<void> {
    this.killed = true;
    this.stopping.abort();
    this.term.fence.abort();
    await this.controllers?.stop();
  }

  private async begin(): Promise<void> {
    const core = this.kc.makeApiClient(CoreV1Api);
    const custom = this.kc.makeApiClient(CustomObjectsApi);
    const facts = await this.validate(core, custom);
    // No host step starts once leadership ended (the safe point of a lost Lease, fenced-opener.ts).
    const options = { ...(await controllersOptions(this.p, this.kc, this.stopping.signal)), fence: this.term.fence.signal }; // prettier-ignore
    this.controllers = await startupStep(
      async () =>
      createWmcoCore({ parent: this.p.container, providers: this.p.providers, platform: facts.platform }).controllers(options), // prettier-ignore
    );
    this.leadership = this.p.config.leaderElection
      ? this.elect(this.controllers.events)
      : this.runUnelected();
  }

  /** Checks the cluster once at start and returns the facts read for it. */
  private async validate(core: CoreV1Api, custom: CustomObjectsApi): Promise<ClusterFacts> {
    const version = await this.kc.makeApiClient(VersionApi).getCode();
    const facts = await readClusterFacts(core, custom, this.p.config.namespace).catch((err: unknown) => {
      throw new StartupError(
        `cannot read the cluster configuration: ${err instanceof Error ? err.message : String(err)}`,
      );
    });
    const problems = [kubernetesVersionProblem(version.gitVersion), ...networkProblems(facts.network)].filter(
      (x) => x !== undefined,
    );
    const fatal = problems.filter((x) => x.fatal).map((x) => x.message);
    if (fatal.length === 0) return facts;
    throw await this.refused(core, fatal);
  }

  /** Says why the cluster is refused where admins look (an Event, the operator's status) before the exit. */
  private async refused(core: CoreV1Api, fatal: readonly string[]): Promise<StartupError> {
    const message = `the cluster is not supported: ${fatal.join('; ')}`;
    const { namespace } = this.p.config;
    await recordUnsupportedCluster(
      this.kc,
      { namespace, logger: this.p.logger, redactor: this.p.redactor },
      message,
    );
    const version = this.p.hooks?.version ?? WMCO_VERSION;
    await reportRefusedStart(core, { namespace, version, problems: fatal }).catch((err: unknown) =>
      this.p.logger.warn({ err: String(err) }, 'cannot write the operator status'),
    );
    return new StartupError(message);
  }

  private async runUnelected(): Promise<'lost' | 'stopped'> {
    this.leading = true;
    this.controllerStarts++;
    this.term.begin(this.stopping.signal, this.p.logger);
    await aborted(this.stopping.signal);
    await this.term.ended;
    this.leading = false;
    return 'stopped';
  }

  private elect(events: EventRecorder): Promise<'lost' | 'stopped'> {
    const timing = this.p.hooks?.leaderTiming ?? DEFAULT_LEADER_ELECTION;
    const { namespace, identity } = this.p.config;
    const elector = operatorElector(this.kc, {
      namespace,
      config: { identity, ...timing },
      logger: this.p.logger,
      events,
    });
    return runLeadership({
      elector,
      clock: systemClock,
      timing,
      stop: this.stopping.signal,
      release: () => !this.killed,
      logger: this.p.logger,
      callbacks: {
        onStartedLeading: (term) => {
          this.leading = true;
          this.p.metrics.leader.set(1);
          this.controllerStarts++;
          // A lost Lease ends the term at once: no host step starts after it, in-flight ones abort.
          this.term.begin(term, this.p.logger);
        },
        onStoppedLeading: () => {
          this.leading = false;
          this.p.metrics.leader.set(0);
        },
      },
    });
  }
}

/**
 * Selecting the provider and reading the payload: a failure there is a start-up error (exit 1), as a
 * platform no provider serves or a missing payload.
 */
async function startupStep<T>(step: () => Promise<T>): Promise<T> {
  return step().catch((err: unknown) => {
    throw new StartupError(err instanceof Error ? err.message : String(err));
  });
}
