import type { KubeConfig } from '@kubernetes/client-node';
import type { LogRotation } from '../desired/log-rotation.js';
import type { Ipv4Resolver } from '../desired/windows-instances.js';
import type { SshHostOptions } from '../host/ssh/ssh-options.js';
import type { WindowsHost } from '../host/windows-host.js';
import type { Logger } from '../kube/logger.js';
import type { InstanceStatusStore } from '../lifecycle/instance-status.js';
import type { JoinTimings } from '../lifecycle/join-deps.js';
import type { LifecycleOptions } from '../lifecycle/lifecycle-options.js';
import type { CloudContext } from '../provider/capabilities/cloud-context.js';
import type { ByohControllersOptions } from '../sources/byoh/byoh-controllers.js';
import type { HostSource, InstanceList } from '../sources/byoh/instance-list.js';

type SourceMetrics = NonNullable<ByohControllersOptions['metrics']>;

/** Where the controllers' work is counted (queues, reconciles, CSR decisions, drift checks, hosts, phases). */
export interface WmcoMetricsHooks {
  /** Each drift check's result, of every source. */
  readonly drift?: NonNullable<SourceMetrics['drift']>;
  /** The metrics of the work queue named `name` (`windows-instances`, `csrs`). */
  readonly queue?: NonNullable<SourceMetrics['queue']>;
  /** Reconciles and their durations. */
  readonly controller?: NonNullable<SourceMetrics['controller']>;
  /** Kubelet CSR decisions. */
  readonly csr?: NonNullable<SourceMetrics['csr']>;
  /** An informer's watch restarted, and why. */
  readonly informerRestart?: NonNullable<SourceMetrics['informerRestart']>;
  /** Wraps each host the controllers open (to count its operations). */
  readonly wrapHost?: (host: WindowsHost) => WindowsHost;
  /** Wraps the instance status store (to observe phase changes). */
  readonly wrapStatus?: (store: InstanceStatusStore) => InstanceStatusStore;
}

/** Values that must never reach a log line or an event: private keys, bootstrap tokens, proxy credentials. */
export interface SecretScrubber {
  /** A secret value seen (a private key, a bootstrap token). */
  register(secret: string | undefined): void;
  /** A proxy URL seen: its credentials are secrets. */
  registerProxy(value: string | undefined): void;
  /** The text with every registered secret hidden (event messages go through it). */
  scrubText(text: string): string;
}

/** Test and simulation settings; a production process leaves them unset. */
export interface WmcoTestHooks {
  /** SSH options per host address (the simulated hosts' ports). */
  readonly sshOverrides?: (address: string) => Partial<SshHostOptions>;
  /** How `windows-instances` DNS names resolve (default: the system resolver). */
  readonly resolver?: Ipv4Resolver;
  /** The join's waits for the Node (default: 10 min each, polled every second). */
  readonly timings?: Partial<JoinTimings>;
  /** Drain and retry timings of the upgrade flow. */
  readonly lifecycle?: Partial<Omit<LifecycleOptions, 'maxUnavailable' | 'operatorCondition'>>;
  /** Machine source: failed joins before a Machine is deleted, and the delay between attempts. */
  readonly machineRetry?: { readonly budget: number; readonly retryMs: number };
}

/**
 * What `WmcoCore.controllers()` needs. Everything a process reads from its flags or environment comes
 * in here: the core reads no environment variable and no file but the payload directory.
 */
export interface WmcoControllersOptions {
  /** How to reach the API server, as the process's own identity (its RBAC: docs/embedding.md). */
  readonly kubeConfig: KubeConfig;
  /** The one namespace the controllers work in: `windows-instances`, the key Secret, records, status. */
  readonly namespace: string;
  readonly logger: Logger;
  /**
   * The version the nodes are annotated with; names the services ConfigMap (`windows-services-<version>`).
   * Nodes of another version are upgraded to this one.
   */
  readonly version: string;
  /** The directory with the node payload (kubelet, containerd, ...) and its manifest. */
  readonly payloadDir: string;
  /** The Secret in `namespace` with the SSH private key (`private-key.pem`); default `cloud-private-key`. */
  readonly privateKeySecret?: string;
  /** The events' reporting component (default `windows-machine-config-operator`). */
  readonly component?: string;
  /** The Machine source (default on; it runs only where the cluster serves Machines and RBAC allows it). */
  readonly machines?: boolean;
  /**
   * Where the BYOH source's hosts come from (default: the `windows-instances` ConfigMap in `namespace`):
   * an embedder's own list, such as custom resources it watches, whose hosts then get the same shared
   * lifecycle. Its `report` receives each host's status (docs/embedding.md).
   */
  readonly instances?: InstanceList | undefined;
  /**
   * Run the `windows-instances` source (default true). `false`: only the embedder's own `sources` (and
   * Machines, unless `machines: false`); no `windows-instances` ConfigMap is read.
   */
  readonly byoh?: boolean;
  /**
   * The embedder's own sources of Windows hosts: each runs the shared lifecycle on its own work queue,
   * keeps its records under `source/<id>` and `source: <id>` in its statuses (docs/embedding.md).
   */
  readonly sources?: readonly HostSource[] | undefined;
  /** Keep the windows-exporter ServiceMonitor in `namespace` (default on). */
  readonly serviceMonitor?: boolean;
  /** Hosts joined at once (default 5). */
  readonly parallelJoins?: number;
  /** Hosts uploading the payload at once, across joins and upgrades (default: no limit). */
  readonly parallelUploads?: number | undefined;
  /** How often Ready nodes are checked for drift (default 2 min; 0 turns drift repair off). */
  readonly driftRepairIntervalMs?: number | undefined;
  /** Windows nodes that upgrades and reboots may take out of service at once: `1`, `25%` (default 1). */
  readonly maxUnavailable?: string | undefined;
  /** The OLM OperatorCondition to report `Upgradeable` on (default: none). */
  readonly operatorConditionName?: string | undefined;
  /** Kubelet client CSRs come from bootstrap tokens in this group (default: OpenShift's node-bootstrapper). */
  readonly bootstrapGroup?: string | undefined;
  /** How long a join's node name may get its client CSR approved (default 15 min). */
  readonly registrationTimeoutMs?: number | undefined;
  /** HTTP_PROXY / HTTPS_PROXY / NO_PROXY for the nodes' services, verbatim (default none). */
  readonly proxyEnv?: Readonly<Record<string, string>>;
  /** The Windows services' log rotation (default: none). */
  readonly logRotation?: LogRotation;
  /**
   * The admin's drain timeout (ADR 0037): after it, a removal or upgrade whose drain a PodDisruptionBudget
   * blocks deletes the remaining pods and goes on (DrainTimeout event). Unset: wait, as before.
   */
  readonly drainForceAfterMs?: number | undefined;
  /** Keep the services' logs on a removed host (default: delete them). */
  readonly keepLogsOnRemoval?: boolean;
  /** Verbose service logs on the nodes. */
  readonly debug?: boolean;
  /** How the provider's cloud capabilities reach the cloud (credentials, endpoints); absent: not configured. */
  readonly cloudContext?: CloudContext | undefined;
  /** The cluster ownership tag of BYOH cloud instances: `check` (default), `apply`, `apply-owned`. */
  readonly cloudTagging?: 'check' | 'apply' | 'apply-owned' | undefined;
  /**
   * Deadlines and output bounds of every host operation (SSH adapter options: handshake, requests,
   * applies, uploads, output); unset: the adapter's defaults (docs/byoh.md, "Deadlines").
   */
  readonly hostLimits?: Partial<SshHostOptions> | undefined;
  /** Accept instances on 127.0.0.0/8 (simulated worlds only). */
  readonly allowLoopbackInstances?: boolean | undefined;
  /**
   * The embedding's leadership fence: once aborted, no host step starts (an open, an observe, an upload, an
   * apply is refused before it sends anything) and steps in flight abort. Absent: only `signal` and each
   * reconcile's own signal end host work.
   */
  readonly fence?: AbortSignal | undefined;
  /** Ends the caches' watches (cluster facts, host keys, node records) when aborted. */
  readonly signal?: AbortSignal;
  /** Where secrets are registered so that events never carry them (default: events are not scrubbed). */
  readonly secrets?: SecretScrubber;
  readonly metrics?: WmcoMetricsHooks;
  readonly hooks?: WmcoTestHooks;
}
