import { mkdtemp, rm } from 'node:fs/promises';
import { boundedSteps } from './bounded-steps.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { newRootContainer, type Ipv4Resolver } from '@wmco/core';
import { type InstanceStatus } from '@wmco/core/internal';
import { instanceStatuses } from './instance-statuses.js';
import { joinTimings } from './world-join-timings.js';
import { type WmcoProvider } from '@wmco/core/provider';
import {
  FREE_HOST_COSTS,
  OPERATOR_NAMESPACE,
  SimulatedWindowsHost,
  generateEd25519KeyPair,
  knowPayloadFiles,
  type SimInstanceLauncher,
  startSimCluster,
  type SimCluster,
} from '@wmco/sim';
import { simCloudMetadataHostname, startSimCloud, type SimCloud } from '../clouds/sim-clouds.js';
import { PooledKubeConfig } from '@wmco/operator';
import { OperatorRuntime } from '@wmco/operator';
import { OperatorMetrics } from '@wmco/operator';
import { createLogger } from '@wmco/operator';
import { Redactor } from '@wmco/operator';
import { writeSimPayload } from './sim-payload.js';
import { OperatorStarts } from './operator-starts.js';
import { operatorPodLogSink } from './operator-pod.js';
import { WorldHostSet } from './world-hosts.js';
import { powershellEngineFor } from './host-engine.js';
import { WorldMachines } from './world-machines.js';
import { worldMachineHosts } from './world-hypervisor.js';
import {
  attachWorldCloud,
  versionConfig,
  WORLD_LEADER_TIMING,
  versionHooks,
  type OperatorVersionOptions,
} from './operator-version.js';
export type { OperatorVersionOptions } from './operator-version.js';
import { cloudSettings, type SimWorldOptions } from './sim-world-options.js';
export type { SimWorldOptions } from './sim-world-options.js';

/** The simulated cluster's VXLAN port unless told otherwise: a custom one, as vSphere needs. */
export const DEFAULT_VXLAN_PORT = 9898;
const vxlanPortOf = (o: SimWorldOptions): number => o.vxlanPort ?? DEFAULT_VXLAN_PORT;

/**
 * The whole simulated world on one machine: the API server with its controllers, N Windows hosts over
 * real SSH, a payload directory, the private key Secret, and operators run against it in-process.
 */
export class SimWorld {
  private adminConfig: KubeConfig | undefined;
  readonly operators: OperatorRuntime[] = [];
  private readonly starts = new OperatorStarts(this.operators);
  readonly redactor = new Redactor();
  readonly cluster: SimCluster;
  readonly hosts: WorldHostSet;
  readonly privateKey: string;
  /** The public half of `privateKey` (OpenSSH authorized_keys line), installed on every host. */
  readonly publicKey: string;
  readonly dir: string;
  readonly payloadDir: string;
  /** The simulated cloud, when started with `cloud: true` on AWS, Azure or GCP. */
  cloud: SimCloud | undefined;
  /** The VMs behind Machines (the simulated machine-api's hypervisor). */
  readonly launcher: SimInstanceLauncher;
  private readonly o: SimWorldOptions;
  /** Lets go of the payload's large files, known to the simulated hosts' file stores while the world runs. */
  private forgetPayload: () => void = () => undefined;

  private constructor(parts: {
    cluster: SimCluster;
    hosts: WorldHostSet;
    privateKey: string;
    publicKey: string;
    dir: string;
    payloadDir: string;
    options: SimWorldOptions;
    launcher: SimInstanceLauncher;
  }) {
    this.launcher = parts.launcher;
    this.cluster = parts.cluster;
    this.hosts = parts.hosts;
    this.privateKey = parts.privateKey;
    this.publicKey = parts.publicKey;
    this.dir = parts.dir;
    this.payloadDir = parts.payloadDir;
    this.o = parts.options;
  }

  static async start(o: SimWorldOptions): Promise<SimWorld> {
    const dir = await mkdtemp(join(tmpdir(), 'wmco-world-'));
    // The cloud starts first: the machine-api's launcher creates Machines' instances in it.
    const cloud = o.cloud ? await startSimCloud(o.platform ?? 'None') : undefined;
    const powershell = powershellEngineFor(o.hostEngine, dir);
    const machineHosts = worldMachineHosts(o, cloud?.machines, powershell);
    const launcher = machineHosts.launcher;
    const cluster = await startSimCluster({
      platform: o.platform ?? 'None',
      machineInstances: launcher,
      nodeGracePeriodSeconds: 20,
      ...(o.rbac ? { rbac: true } : {}),
      ...(o.cloudProvider !== undefined ? { cloudProvider: o.cloudProvider } : {}),
      ...(o.hybridClusterNetwork !== undefined ? { hybridClusterNetwork: o.hybridClusterNetwork } : {}),
      vxlanPort: vxlanPortOf(o),
    });
    machineHosts.bind(cluster);
    const key = generateEd25519KeyPair();
    const specs = o.hosts.map((h) => {
      const metadataHostname = o.cloud ? simCloudMetadataHostname(cluster.platform, h.hostname) : undefined;
      return metadataHostname && !h.metadataHostname ? { ...h, metadataHostname } : h;
    });
    const hosts = await WorldHostSet.start(specs, key.public, { ...FREE_HOST_COSTS, ...o.costs }, powershell);
    hosts.allowVxlan(vxlanPortOf(o));
    const payloadDir =
      o.payloadDir ??
      (await writeSimPayload(o.payloadBytesPerFile ?? 4096, join(dir, 'payload'), o.payloadLayout));
    const world = new SimWorld({
      cluster,
      hosts,
      privateKey: key.private,
      publicKey: key.public,
      dir,
      payloadDir,
      options: o,
      launcher,
    });
    await cluster.writeKubeconfigs(dir);
    world.cloud = await attachWorldCloud(cluster, hosts, cloud, o.cloudCredentials);
    world.forgetPayload = (await knowPayloadFiles(payloadDir)).forget;
    return world;
  }

  /** The providers the world's operators run with. */
  get providers(): readonly WmcoProvider[] {
    return this.o.providers;
  }

  get adminKubeconfig(): string {
    return join(this.dir, 'admin.kubeconfig');
  }

  /** The cluster admin's API over one connection pool (polling must not pay a TLS handshake per request). */
  admin(): CoreV1Api {
    if (!this.adminConfig) {
      this.adminConfig = new PooledKubeConfig();
      this.adminConfig.loadFromFile(this.adminKubeconfig);
    }
    return this.adminConfig.makeApiClient(CoreV1Api);
  }

  async createPrivateKeySecret(privateKey = this.privateKey): Promise<void> {
    const body = {
      metadata: { name: 'cloud-private-key', namespace: OPERATOR_NAMESPACE },
      data: { 'private-key.pem': Buffer.from(privateKey).toString('base64') },
    };
    const api = this.admin();
    await api
      .deleteNamespacedSecret({ name: 'cloud-private-key', namespace: OPERATOR_NAMESPACE })
      .catch(() => undefined);
    await api.createNamespacedSecret({ namespace: OPERATOR_NAMESPACE, body });
  }

  /**
   * Writes `windows-instances` with exactly these entries (key: address, value: username=...), in place
   * when it exists (deleting and re-creating it would briefly list no entry at all, and the operator
   * would start removing every node); `undefined` deletes it.
   */
  async setInstances(data: Record<string, string> | undefined): Promise<void> {
    const api = this.admin();
    const name = 'windows-instances';
    const namespace = OPERATOR_NAMESPACE;
    if (!data) {
      await api.deleteNamespacedConfigMap({ name, namespace }).catch(() => undefined);
      return;
    }
    const existing = await api.readNamespacedConfigMap({ name, namespace }).catch(() => undefined);
    if (existing) await api.replaceNamespacedConfigMap({ name, namespace, body: { ...existing, data } });
    else await api.createNamespacedConfigMap({ namespace, body: { metadata: { name, namespace }, data } });
  }

  /**
   * A second operator version for upgrade tests: a payload directory in which only `files` differ from
   * the world's (same sizes), to start an operator with `startOperator(id, { version, payloadDir })`.
   */
  async payloadVariant(tag: string, files: readonly string[]): Promise<string> {
    return writeSimPayload(
      this.o.payloadBytesPerFile ?? 4096,
      join(this.dir, `payload-${tag}`),
      this.o.payloadLayout,
      {
        files,
        tag,
      },
    );
  }

  async startOperator(identity = 'wmco-0', v: OperatorVersionOptions = {}): Promise<OperatorRuntime> {
    // The log goes to the caller's sink and to the simulated operator Pod (`kubectl logs`).
    const sink = operatorPodLogSink(this.cluster.server, identity, this.o.logSink);
    const logger = createLogger({ level: 'debug', redactor: this.redactor, destination: { write: sink } });
    return this.starts.track((stopping) =>
      OperatorRuntime.start({
        config: {
          kubeconfig: join(this.dir, 'operator.kubeconfig'),
          namespace: OPERATOR_NAMESPACE,
          payloadDir: v.payloadDir ?? this.payloadDir,
          ...versionConfig(v),
          parallelJoins: this.o.parallelJoins ?? 5,
          parallelUploads: this.o.parallelUploads,
          debug: false,
          logLevel: 'debug',
          probeAddress: '',
          leaderElection: true,
          identity,
          privateKeySecret: 'cloud-private-key',
          providerPackages: [],
          servicesLog: { ...v.servicesLog },
          proxyEnv: { ...this.o.operatorProxyEnv },
          keepLogsOnRemoval: this.o.keepLogsOnRemoval ?? true,
          driftRepairIntervalMs: this.o.driftRepairIntervalMs ?? 1000,
          allowLoopbackInstances: this.o.allowLoopbackInstances ?? true,
          ...(this.o.hostLimits ? { hostLimits: this.o.hostLimits } : {}),
          ...cloudSettings(this.o),
        },
        providers: this.o.providers,
        container: newRootContainer(),
        logger,
        redactor: this.redactor,
        metrics: new OperatorMetrics({ defaultMetrics: false }),
        hooks: {
          sshOverrides: (address) => this.sshOverrides(address),
          resolver: this.resolver,
          timings: joinTimings(this.o.nodePollMs),
          leaderTiming: v.leaderTiming ?? WORLD_LEADER_TIMING,
          ...versionHooks(v),
          machineRetry: this.o.machineRetry ?? { budget: 2, retryMs: 200 },
          stopping,
        },
      }),
    );
  }

  /** A Machine's VM gets 3 s to answer (its user data either opened sshd at boot or never will). */
  private sshOverrides(address: string): ReturnType<WorldHostSet['sshOverrides']> {
    const base = this.hosts.sshOverrides(address, this.machineHost(address));
    const isMachine = [...this.launcher.instances.values()].some((i) => i.address === address);
    return isMachine ? { ...base, connectDeadlineMs: 3000 } : base;
  }

  /** The simulated host behind a Machine's address, while its SSH server is up. */
  machineHost(address: string): SimulatedWindowsHost | undefined {
    return [...this.launcher.instances.values()].find((i) => i.address === address)?.host;
  }

  /** machine.openshift.io as the admin: MachineSets, scaling, Machines. */
  machineApi(): WorldMachines {
    return new WorldMachines(this.adminKubeconfig, this.cluster.infrastructureName);
  }

  readonly resolver: Ipv4Resolver = (name) => this.hosts.resolve(name);

  /** The status the operator published for an address (from the status ConfigMap). */
  async status(address: string): Promise<InstanceStatus | undefined> {
    return (await this.statuses())[address];
  }

  /** Every instance's status, from one read of `windows-instances-status` (by address). */
  statuses(): Promise<Record<string, InstanceStatus>> {
    return instanceStatuses(this.admin());
  }

  /** Stops everything; a part that does not stop within 20 s fails this call naming it (bounded-steps.ts). */
  async stop(): Promise<void> {
    try {
      await boundedSteps(
        [
          ['the operators', () => this.starts.stopAll()],
          ['the BYOH hosts', () => this.hosts.stop()],
          ['the cloud', async () => this.cloud?.close()],
          ['the cluster', () => this.cluster.stop()],
          ['the Machine VMs', () => this.launcher.stop()],
        ],
        20_000,
      );
    } finally {
      await rm(this.dir, { recursive: true, force: true });
      this.forgetPayload();
    }
  }
}

export { SimulatedWindowsHost };
