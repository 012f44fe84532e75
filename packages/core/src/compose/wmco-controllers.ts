import type { V1Node } from '@kubernetes/client-node';
import { CertificatesV1Api, CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { bootstrapTokenIdentity, openShiftBootstrapIdentity } from '../identity/bootstrap-identity.js';
import { kubeWatch } from '../kube/client/kube-watch.js';
import { KubeOperatorCondition } from '../lifecycle/kube-operator-condition.js';
import type { EventRecorder } from '../kube/event-recorder.js';
import { readClusterFacts } from '../cluster/read-cluster-facts.js';
import { systemIpv4Resolver } from '../desired/system-ipv4-resolver.js';
import type { LifecycleOptions } from '../lifecycle/lifecycle-options.js';
import { NodeMaintenance } from '../lifecycle/maintenance.js';
import { parseMaxUnavailable } from '../lifecycle/max-unavailable.js';
import { NodeChangeFeed } from '../lifecycle/node-changes.js';
import type { ByohControllers } from '../sources/byoh/byoh-controllers.js';
import { clusterAddressPolicy } from './cluster-address-policy.js';
import { clusterCaches } from './cluster-caches.js';
import { ConfigurationWatches } from './configuration-watches.js';
import { controllerDeps, eventRecorder, statusStore } from './controller-deps.js';
import { operatorStatus } from './operator-status.js';
import type { OperatorStatusReporter } from './operator-status-reporter.js';
import type { ConfigMapStatusStore } from '../lifecycle/configmap-status-store.js';
import type { WmcoCore } from './create-wmco-core.js';
import { machineSource, serviceMonitor } from './machine-source.js';
import { CloudContext } from '../provider/capabilities/cloud-context.js';
import { platformParts } from './platform-parts.js';
import { buildListedSources, listedSources, reportingStatus } from './listed-sources.js';
import type { Runnable } from './runnable.js';
import type { WmcoControllersOptions, WmcoMetricsHooks } from './wmco-controllers-options.js';
import type { Ipv4Resolver } from '../desired/windows-instances.js';

/** How often a Ready node is checked for drift: upstream WICD's resync period (2 minutes). */
export const DEFAULT_DRIFT_REPAIR_INTERVAL_MS = 120_000;

/** What `WmcoCore.controllers()` returns: the runnables of one cluster's Windows nodes. */
export interface WmcoControllers {
  /**
   * The parts, in the order `start()` starts them: the shared lifecycle (`node-maintenance`, which first
   * waits for the Windows nodes to be listed), the `configuration-watches`, the `service-monitor` (when
   * kept), then the sources: `byoh` (unless `byoh: false`), one `source/<id>` per embedder's source and,
   * where served, `machines`. An embedder that starts them itself
   * starts them in this order, each after the previous one resolved, and stops all of them.
   */
  readonly runnables: readonly Runnable[];
  /** The events recorder the controllers write with (the embedder may report its own events with it). */
  readonly events: EventRecorder;
  /** Whether the Machine source runs (the cluster serves Machines, RBAC allows, the provider can). */
  readonly machines: boolean;
  /** Every runnable's informers synced (a readiness probe). */
  readonly synced: boolean;
  /** Starts every runnable in order; call it only in the one process that may act (the leader). */
  start(): Promise<void>;
  /** Stops every runnable and waits for in-flight work (a join, a drift repair) to end. */
  stop(): Promise<void>;
}

/** A runnable over start/stop functions. */
function runnable(
  name: string,
  parts: { start: () => Promise<void>; stop: () => Promise<void>; synced?: () => boolean },
): Runnable {
  let started = false;
  let stops = 0;
  return {
    name,
    start: async () => {
      const before = stops;
      await parts.start();
      // A stop while this start ran may have come before what the start opened: stop that too.
      if (stops !== before) return parts.stop();
      started = true;
    },
    stop: async () => {
      stops++;
      started = false;
      await parts.stop();
    },
    get synced() {
      return parts.synced ? parts.synced() : started;
    },
  };
}

function lifecycleFrom(o: WmcoControllersOptions): Partial<LifecycleOptions> {
  const name = o.operatorConditionName;
  const custom = o.kubeConfig.makeApiClient(CustomObjectsApi);
  return {
    maxUnavailable: parseMaxUnavailable(o.maxUnavailable ?? '1'),
    ...(name ? { operatorCondition: new KubeOperatorCondition(custom, o.namespace, name) } : {}),
    ...(o.drainForceAfterMs !== undefined ? { drainForceAfterMs: o.drainForceAfterMs } : {}),
    ...o.hooks?.lifecycle,
  };
}

/** The settings the sources share, with their defaults. */
function sourceSettings(o: WmcoControllersOptions): {
  readonly privateKeySecret: string;
  readonly parallelJoins: number;
  readonly driftRepairIntervalMs: number;
  readonly resolver: Ipv4Resolver;
  readonly metrics: WmcoMetricsHooks;
} {
  return {
    privateKeySecret: o.privateKeySecret ?? 'cloud-private-key',
    parallelJoins: o.parallelJoins ?? 5,
    driftRepairIntervalMs: o.driftRepairIntervalMs ?? DEFAULT_DRIFT_REPAIR_INTERVAL_MS,
    resolver: o.hooks?.resolver ?? systemIpv4Resolver,
    metrics: o.metrics ?? {},
  };
}

/**
 * The shared lifecycle's runnable: it reads the statuses an earlier run left (so the first write carries
 * their conditions on), waits for the Windows nodes to be listed, writes the operator's own conditions,
 * then publishes the services ConfigMap.
 */
function maintenanceRunnable(
  maintenance: NodeMaintenance,
  listed: readonly ByohControllers[],
  status: { store: ConfigMapStatusStore; reporter: OperatorStatusReporter },
): Runnable {
  return runnable('node-maintenance', {
    start: async () => {
      await status.store.load();
      await Promise.all(listed.map((l) => l.startInformers()));
      await status.reporter.start();
      // This version's services ConfigMap exists before any node is configured with it.
      await maintenance.start();
    },
    stop: async () => {
      await status.reporter.stop();
      await maintenance.stop();
    },
  });
}

/** The composition behind `WmcoCore.controllers()` (see there). */
export async function buildControllers(wmco: WmcoCore, o: WmcoControllersOptions): Promise<WmcoControllers> {
  const lifecycle = lifecycleFrom(o); // a bad maxUnavailable fails here, before anything runs
  const kc = o.kubeConfig;
  const [core, custom] = [kc.makeApiClient(CoreV1Api), kc.makeApiClient(CustomObjectsApi)];
  // The cloud's credentials and facts, before any capability is resolved (the providers' cloud access reads it).
  if (o.cloudContext) wmco.container.register(CloudContext, { useValue: o.cloudContext });
  const parts = await platformParts(wmco, o.payloadDir);
  // Cluster facts, host keys and node records from watches (issue 16 §5), until `signal` aborts.
  const caches = clusterCaches(kc, o.namespace, o.logger, o.signal);
  const s = sourceSettings(o);
  // One read at start (the caches' watches start with the first join: a follower opens none).
  const facts = await readClusterFacts(core, custom, o.namespace);
  const allowLoopback = o.allowLoopbackInstances === true;
  const addressPolicy = clusterAddressPolicy(core, kc, facts, { resolver: s.resolver, allowLoopback });
  const nodeFeed = new NodeChangeFeed();
  const events = eventRecorder(o);
  const store = statusStore(o);
  const built = await controllerDeps(
    { o, parts, caches, addressPolicy, nodeChanges: nodeFeed, facts, status: store },
    events,
  );
  const sources = listedSources(o);
  // An embedder's own host lists hear of each of their hosts' status (InstanceList.report).
  const deps = { ...built, status: reportingStatus(built.status, sources, o.logger) };
  let nodes: () => readonly V1Node[] = () => [];
  const maintenance = new NodeMaintenance(deps, () => nodes(), lifecycle);
  const listed = buildListedSources(sources, {
    ...{ deps, maintenance, nodeFeed, hostKeys: caches.hostKeys, addressPolicy },
    ...{ privateKeySecret: s.privateKeySecret, parallelJoins: s.parallelJoins, resolver: s.resolver },
    certificates: kc.makeApiClient(CertificatesV1Api),
    watch: kubeWatch(kc),
    remove: {
      deleteLogs: o.keepLogsOnRemoval !== true,
      drainTimeoutMs: 10 * 60_000,
      ...(o.drainForceAfterMs !== undefined ? { drainForceAfterMs: o.drainForceAfterMs } : {}),
    },
    bootstrap: o.bootstrapGroup ? bootstrapTokenIdentity(o.bootstrapGroup) : openShiftBootstrapIdentity,
    driftRepairIntervalMs: s.driftRepairIntervalMs,
    metrics: s.metrics,
  });
  // The first listed source's informers: the Windows nodes, the key and the CSRs (every source sees the same).
  const [byoh] = listed as [ByohControllers, ...ByohControllers[]];
  nodes = () => byoh.windowsNodes();
  const reporter = operatorStatus(o, { store, byoh, facts, privateKeySecret: s.privateKeySecret });
  // One lifecycle for every source: Machines share the budget and flows (ADR 0020).
  const machines =
    o.machines === false
      ? undefined
      : await machineSource({ ...s, deps, custom, watch: kubeWatch(kc), hostKeys: caches.hostKeys, parts: parts.machines, retry: o.hooks?.machineRetry, maintenance, driftMetric: s.metrics.drift }); // prettier-ignore
  const watches = new ConfigurationWatches({ core, custom, watch: kubeWatch(kc), logger: o.logger, namespace: o.namespace, version: o.version, maintenance, onRestart: s.metrics.informerRestart }); // prettier-ignore
  const monitor = o.serviceMonitor === false ? undefined : serviceMonitor(deps, custom, kubeWatch(kc));
  const runnables: Runnable[] = [
    maintenanceRunnable(maintenance, listed, { store, reporter }),
    watches,
    ...(monitor ? [runnable('service-monitor', { start: () => Promise.resolve(monitor.start()), stop: () => monitor.stop() })] : []), // prettier-ignore
    ...listed.map((l) => runnable(l.source.builtIn ? 'byoh' : `source/${l.source.id}`, { start: () => l.start(), stop: () => l.stop(), synced: () => l.synced })), // prettier-ignore
    ...(machines ? [runnable('machines', { start: () => machines.start(), stop: () => machines.stop(), synced: () => machines.synced })] : []), // prettier-ignore
  ];
  return controllerSet(runnables, events, machines !== undefined);
}

function controllerSet(
  runnables: readonly Runnable[],
  events: EventRecorder,
  machines: boolean,
): WmcoControllers {
  let stops = 0;
  return {
    runnables,
    events,
    machines,
    get synced() {
      return runnables.every((r) => r.synced);
    },
    start: async () => {
      const before = stops;
      // In order; none starts once a stop came (a stop while an earlier one still syncs ends the start).
      for (const r of runnables) {
        if (stops !== before) return;
        await r.start();
      }
    },
    stop: async () => {
      stops++;
      await Promise.all(runnables.map((r) => r.stop()));
    },
  };
}
