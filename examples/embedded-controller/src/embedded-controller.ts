import { KubeConfig } from '@kubernetes/client-node';
import {
  createWmcoCore,
  newRootContainer,
  type Logger,
  type WmcoControllers,
  type WmcoTestHooks,
} from '@wmco/core';
import { noneProvider } from '@wmco/provider-none';
import { lineLogger } from './line-logger.js';
import { WindowsHostList } from './windows-host-list.js';

/** The version this controller annotates its nodes with, and the name of its services ConfigMap. */
export const EMBEDDED_VERSION = '0.1.0-embedded';
/**
 * This controller's source of Windows hosts, as @wmco/core records it: `source` in each host's status,
 * `source/windows-hosts` in the node records.
 */
export const WINDOWS_HOSTS_SOURCE = 'windows-hosts';

/** What this controller reads from its flags or environment. */
export interface EmbeddedControllerOptions {
  /** A kubeconfig file; absent: the in-cluster service account (or `$KUBECONFIG`). */
  readonly kubeconfig?: string | undefined;
  /** The namespace with the WindowsHosts, the `cloud-private-key` Secret, and the records. */
  readonly namespace: string;
  /** The version the nodes are annotated with (default EMBEDDED_VERSION); another one upgrades them. */
  readonly version?: string;
  /** The node payload directory (kubelet, containerd, ... and their manifest). */
  readonly payloadDir: string;
  /** `None` or `BareMetal`: the platforms the none provider serves (default `None`). */
  readonly platform?: string;
  readonly logger?: Logger;
  /** Simulated worlds: hosts on 127.0.0.0/8, their SSH ports and names, short waits. */
  readonly simulation?: { readonly hooks: WmcoTestHooks; readonly driftRepairIntervalMs?: number };
}

/** A running embedded controller. */
export interface EmbeddedController {
  readonly controllers: WmcoControllers;
  /** Stops the controllers (in-flight joins end first) and the core's watches. */
  stop(): Promise<void>;
}

function kubeConfigFrom(path: string | undefined): KubeConfig {
  const kc = new KubeConfig();
  if (path) kc.loadFromFile(path);
  else kc.loadFromDefault();
  return kc;
}

/**
 * Starts @wmco/core's controllers inside this process: the none provider, one source of its own (the
 * hosts the namespace's WindowsHost custom resources list; no windows-instances, no Machine API), and no
 * leader election: this controller runs as one replica, so it is the only
 * process that acts on its namespace's hosts. A controller that runs several replicas must elect one
 * (for example with `LeaderElector` and `runLeadership` from @wmco/core) and start the controllers
 * only in the leader.
 */
export async function startEmbeddedController(o: EmbeddedControllerOptions): Promise<EmbeddedController> {
  const logger = o.logger ?? lineLogger();
  const stopping = new AbortController();
  const core = createWmcoCore({
    parent: newRootContainer(),
    providers: [noneProvider],
    platform: o.platform ?? 'None',
  });
  const kubeConfig = kubeConfigFrom(o.kubeconfig);
  const hosts = new WindowsHostList(kubeConfig, o.namespace, logger);
  const controllers = await core.controllers({
    kubeConfig,
    namespace: o.namespace,
    logger,
    version: o.version ?? EMBEDDED_VERSION,
    // The hosts are WindowsHost custom resources: a source of its own, with its own work queue and records.
    byoh: false,
    sources: [{ id: WINDOWS_HOSTS_SOURCE, hosts }],
    payloadDir: o.payloadDir,
    component: 'embedded-windows-controller',
    machines: false,
    serviceMonitor: false,
    signal: stopping.signal,
    ...(o.simulation
      ? {
          allowLoopbackInstances: true,
          hooks: o.simulation.hooks,
          driftRepairIntervalMs: o.simulation.driftRepairIntervalMs,
        }
      : {}),
  });
  // The finalizer's release (a host removed, or not reachable) is told with the controllers' events.
  hosts.useEvents(controllers.events);
  await controllers.start();
  logger.info({ runnables: controllers.runnables.map((r) => r.name) }, 'embedded controllers started');
  return {
    controllers,
    stop: async () => {
      await controllers.stop();
      stopping.abort();
      await core.dispose();
    },
  };
}
