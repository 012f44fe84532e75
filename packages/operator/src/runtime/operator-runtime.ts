import type { KubeConfig } from '@kubernetes/client-node';
import { CertificatesV1Api, CoreV1Api, CustomObjectsApi, VersionApi } from '@kubernetes/client-node';
import {
  ByohControllers,
  addressGuardedOpener,
  ConfigMapStatusStore,
  Registrations,
  kubeWatch,
  kubernetesVersionProblem,
  networkProblems,
  readClusterFacts,
  systemIpv4Resolver,
  type ClusterFacts,
  type JoinDeps,
  DEFAULT_REGISTRATION_TTL_MS,
} from '@wmco/core/internal';
import {
  KubeEventRecorder,
  runLeadership,
  systemClock,
  type EventRecorder,
  type Logger,
  DEFAULT_LEADER_ELECTION,
} from '@wmco/core';
import { type DependencyContainer, type WmcoProvider } from '@wmco/core/provider';
import { WMCO_VERSION } from '../cli/version-command.js';
import { kubeCloudContext } from '../clouds/kube-cloud-context.js';
import { cloudCredentialsSetting } from '../clouds/cloud-credentials-setting.js';
import type { OperatorConfig } from './operator-config.js';
import { hostOpener } from './host-opener.js';
import { clusterCaches, type ClusterCaches } from './cluster-caches.js';
import { machineSource, NodeSources, serviceMonitor } from './node-sources.js';
import { cloudJoin, platformParts, type PlatformParts } from './platform-parts.js';
import { lifecycleFrom } from './lifecycle-config.js';
import type { OperatorMetrics } from './metrics.js';
import { MeteredStatusStore } from './metered-status-store.js';
import type { Redactor } from './redactor.js';
import type { RuntimeHooks } from './runtime-hooks.js';
import { loadKubeConfig } from './load-kubeconfig.js';
import { bootstrapIdentity } from './bootstrap-identity.js';
import { servicesLogRotation } from './services-log-rotation.js';
import { factProblems } from './fact-problems.js';
import { operatorElector } from './operator-elector.js';
import { clusterAddressPolicy } from './cluster-address-policy.js';
import { fencedOpener } from './lease-loss.js';
import { boundedStop } from './bounded-stop.js';
import { aborted, LeadershipTerm } from './leadership-term.js';
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

/** How often a Ready node is checked for drift: upstream WICD's resync period (2 minutes). */
export const DEFAULT_DRIFT_REPAIR_INTERVAL_MS = 120_000;

/** A fatal start-up problem: printed and exit 1, as upstream exits on invalid cluster configuration. */
export class StartupError extends Error {}

/**
 * The running operator: validates the cluster, selects the platform provider, and runs the BYOH
 * controllers while it holds the leader Lease. `stop()` steps down, waits for in-flight work, and
 * releases the Lease.
 */
export class OperatorRuntime {
  private readonly stopping = new AbortController();
  private controllers: NodeSources | undefined;
  private machineParts: PlatformParts['machines'] | undefined;
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
    // Cluster facts and host keys from watches (issue 16 §5), until the operator stops.
    const caches = clusterCaches(this.kc, this.p.config.namespace, this.p.logger, this.stopping.signal);
    const resolver = this.p.hooks?.resolver ?? systemIpv4Resolver;
    const allowLoopback = this.p.config.allowLoopbackInstances === true;
    const addressPolicy = clusterAddressPolicy(core, this.kc, facts, { resolver, allowLoopback });
    const opened = await this.joinDeps(core, custom, facts, caches);
    // Every SSH target passes the address policy, whichever flow and source it comes from (issue 27),
    // and no host step starts once leadership ended (the safe point of a lost Lease, lease-loss.ts).
    const guarded = addressGuardedOpener(opened.openHost, addressPolicy);
    const deps = { ...opened, openHost: fencedOpener(guarded, this.term.fence.signal) };
    const hostKeys = caches.hostKeys; // pins and their removal in one store: none answered from a stale watch
    const { privateKeySecret, parallelJoins } = this.p.config;
    const driftRepairIntervalMs = this.p.config.driftRepairIntervalMs ?? DEFAULT_DRIFT_REPAIR_INTERVAL_MS;
    const byoh = new ByohControllers({
      deps,
      certificates: this.kc.makeApiClient(CertificatesV1Api),
      custom,
      watch: kubeWatch(this.kc),
      hostKeys,
      resolver,
      addressPolicy,
      parallelJoins: this.p.config.parallelJoins,
      remove: { deleteLogs: !this.p.config.keepLogsOnRemoval, drainTimeoutMs: 10 * 60_000 },
      privateKeySecret: this.p.config.privateKeySecret,
      bootstrap: bootstrapIdentity(this.p.config.bootstrapGroup),
      driftRepairIntervalMs,
      lifecycle: lifecycleFrom(this.p.config, this.kc, this.p.hooks?.lifecycle),
      metrics: this.p.metrics.byohMetrics(),
    });
    // One lifecycle for both sources: Machines share the BYOH source's budget and flows (ADR 0020).
    const machines = await machineSource({ deps, custom, watch: kubeWatch(this.kc), hostKeys, parts: this.machineParts, privateKeySecret, parallelJoins, retry: this.p.hooks?.machineRetry, maintenance: byoh.maintenance, driftRepairIntervalMs, driftMetric: (result) => this.p.metrics.driftChecks.inc({ result }) }); // prettier-ignore
    this.controllers = new NodeSources(byoh, machines, serviceMonitor(deps, custom, kubeWatch(this.kc)));
    this.leadership = this.p.config.leaderElection ? this.elect(deps.events) : this.runUnelected();
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
    if (fatal.length > 0) throw new StartupError(`the cluster is not supported: ${fatal.join('; ')}`);
    return facts;
  }

  private async joinDeps(
    core: CoreV1Api,
    custom: CustomObjectsApi,
    facts: ClusterFacts,
    caches: ClusterCaches,
  ): Promise<JoinDeps> {
    const { config, logger } = this.p;
    for (const v of Object.values(config.proxyEnv)) this.p.redactor.registerProxy(v);
    const { cloud, ...parts } = await platformParts({
      container: this.p.container,
      providers: this.p.providers,
      platform: facts.platform,
      payloadDir: config.payloadDir,
      cloudContext: await kubeCloudContext(this.kc, cloudCredentialsSetting(config, logger)).catch(
        () => undefined,
      ),
    }).catch((err: unknown) => {
      throw new StartupError(err instanceof Error ? err.message : String(err));
    });
    this.machineParts = parts.machines;
    const logRotation = servicesLogRotation(config);
    const hooks = this.p.hooks ?? {};
    const events = new KubeEventRecorder(core, {
      component: 'windows-machine-config-operator',
      scrub: (t) => this.p.redactor.scrubText(t),
      logger,
    });
    const problems = factProblems(events, config.namespace);
    await problems(facts);
    // No decision is made before the operator's node records are read (ADR 0035).
    await caches.records.start();
    return {
      core,
      namespace: config.namespace,
      version: hooks.version ?? WMCO_VERSION,
      openHost: hostOpener({
        core,
        namespace: config.namespace,
        redactor: this.p.redactor,
        logger,
        sshOverrides: hooks.sshOverrides,
        meter: this.p.metrics.hostMeter(),
        pins: caches.hostKeys,
        parallelUploads: config.parallelUploads,
      }),
      capabilities: parts.capabilities,
      payload: parts.payload,
      providerFiles: parts.providerFiles,
      payloadDir: config.payloadDir,
      facts: async () => {
        const f = await caches.facts.facts();
        this.p.redactor.register(f.bootstrap.token);
        for (const v of Object.values(f.proxy ?? {})) this.p.redactor.registerProxy(v);
        await problems(f);
        return f;
      },
      events,
      logger,
      status: new MeteredStatusStore(
        new ConfigMapStatusStore(core, config.namespace, (t) => this.p.redactor.scrubText(t)),
        (phase, seconds) => this.p.metrics.phaseDone(phase, seconds),
        (address, phase) => this.p.metrics.instancePhase(address, phase),
      ),
      names: new Registrations({ ttlMs: config.registrationTimeoutMs ?? DEFAULT_REGISTRATION_TTL_MS }),
      records: caches.records,
      debug: config.debug,
      logRotation,
      proxyEnv: config.proxyEnv,
      timings: { nodeRegistrationMs: 10 * 60_000, nodeReadyMs: 10 * 60_000, pollMs: 1000, ...hooks.timings },
      cloud: cloudJoin(cloud, {
        mode: config.cloudTagging ?? 'check',
        events,
        logger,
        namespace: config.namespace,
      }),
    };
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
