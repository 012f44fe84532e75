import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { newRootContainer, type InstanceStatus, type Ipv4Resolver, type WmcoProvider } from '@wmco/core';
import {
  FREE_HOST_COSTS,
  OPERATOR_NAMESPACE,
  SimulatedWindowsHost,
  generateEd25519KeyPair,
  startSimCluster,
  type HostCosts,
  type SimCluster,
} from '@wmco/sim';
import { OperatorRuntime } from '../runtime/operator-runtime.js';
import { OperatorMetrics } from '../runtime/metrics.js';
import { createLogger } from '../runtime/logger.js';
import { Redactor } from '../runtime/redactor.js';
import { writeSimPayload, type PayloadLayout } from './sim-payload.js';
import { WorldHostSet, type SimHostSpec } from './world-hosts.js';

export interface SimWorldOptions {
  readonly hosts: readonly SimHostSpec[];
  readonly platform?: string;
  readonly costs?: Partial<HostCosts>;
  readonly parallelJoins?: number;
  readonly providers: readonly WmcoProvider[];
  /** Where operator log lines go (JSON); default: dropped. */
  readonly logSink?: (line: string) => void;
  readonly rbac?: boolean;
  readonly payloadBytesPerFile?: number;
  /** Layout of the generated payload (default `upstream`: every file a `.tar.gz`). */
  readonly payloadLayout?: PayloadLayout;
  /** Use this payload directory instead of generating one (e.g. the benchmarks' realistic payload). */
  readonly payloadDir?: string;
  /** Drift repair period of the operators (default 1 s here; 2 min in `wmco run`); 0 turns it off. */
  readonly driftRepairIntervalMs?: number;
  /** The operators accept loopback instances (the world's hosts are on 127.0.0.0/8); default true here. */
  readonly allowLoopbackInstances?: boolean;
}

/** Which operator `startOperator` runs: its version, payload and disruption budget. */
export interface OperatorVersionOptions {
  readonly version?: string;
  readonly payloadDir?: string;
  readonly maxUnavailable?: string;
  readonly drainTimeoutMs?: number;
  /** OPERATOR_CONDITION_NAME: the OperatorCondition to report `Upgradeable` on. */
  readonly operatorCondition?: string;
}

/** The parts of an operator's configuration `OperatorVersionOptions` set. */
function versionConfig(v: OperatorVersionOptions): {
  maxUnavailable?: string;
  operatorConditionName?: string;
} {
  return {
    ...(v.maxUnavailable ? { maxUnavailable: v.maxUnavailable } : {}),
    ...(v.operatorCondition ? { operatorConditionName: v.operatorCondition } : {}),
  };
}

/**
 * The whole simulated world on one machine: the API server with its controllers, N Windows hosts over
 * real SSH, a payload directory, the private key Secret, and operators run against it in-process.
 */
export class SimWorld {
  readonly operators: OperatorRuntime[] = [];
  readonly redactor = new Redactor();
  readonly cluster: SimCluster;
  readonly hosts: WorldHostSet;
  readonly privateKey: string;
  /** The public half of `privateKey` (OpenSSH authorized_keys line), installed on every host. */
  readonly publicKey: string;
  readonly dir: string;
  readonly payloadDir: string;
  private readonly o: SimWorldOptions;

  private constructor(parts: {
    cluster: SimCluster;
    hosts: WorldHostSet;
    privateKey: string;
    publicKey: string;
    dir: string;
    payloadDir: string;
    options: SimWorldOptions;
  }) {
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
    const cluster = await startSimCluster({
      platform: o.platform ?? 'None',
      nodeGracePeriodSeconds: 20,
      ...(o.rbac ? { rbac: true } : {}),
    });
    const key = generateEd25519KeyPair();
    const hosts = await WorldHostSet.start(o.hosts, key.public, { ...FREE_HOST_COSTS, ...o.costs });
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
    });
    await cluster.writeKubeconfigs(dir);
    return world;
  }

  get adminKubeconfig(): string {
    return join(this.dir, 'admin.kubeconfig');
  }

  admin(): CoreV1Api {
    const kc = new KubeConfig();
    kc.loadFromFile(this.adminKubeconfig);
    return kc.makeApiClient(CoreV1Api);
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
    const sink = this.o.logSink ?? (() => undefined);
    const logger = createLogger({ level: 'debug', redactor: this.redactor, destination: { write: sink } });
    const rt = await OperatorRuntime.start({
      config: {
        kubeconfig: join(this.dir, 'operator.kubeconfig'),
        namespace: OPERATOR_NAMESPACE,
        payloadDir: v.payloadDir ?? this.payloadDir,
        ...versionConfig(v),
        parallelJoins: this.o.parallelJoins ?? 5,
        debug: false,
        logLevel: 'debug',
        probeAddress: '',
        leaderElection: true,
        identity,
        privateKeySecret: 'cloud-private-key',
        providerPackages: [],
        servicesLog: {},
        proxyEnv: {},
        keepLogsOnRemoval: true,
        driftRepairIntervalMs: this.o.driftRepairIntervalMs ?? 1000,
        allowLoopbackInstances: this.o.allowLoopbackInstances ?? true,
      },
      providers: this.o.providers,
      container: newRootContainer(),
      logger,
      redactor: this.redactor,
      metrics: new OperatorMetrics({ defaultMetrics: false }),
      hooks: {
        sshOverrides: (address) => this.hosts.sshOverrides(address),
        resolver: this.resolver,
        timings: { nodeRegistrationMs: 60_000, nodeReadyMs: 60_000, pollMs: 100, keyRetryMs: 500 },
        leaderTiming: { leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 300 },
        ...(v.version ? { version: v.version } : {}),
        lifecycle: {
          drainRetryMs: 200,
          drainTimeoutMs: v.drainTimeoutMs ?? 30_000,
          upgradeRetryMs: 500,
          servicesResyncMs: 500,
          upgradeableIntervalMs: 100,
        },
      },
    });
    this.operators.push(rt);
    return rt;
  }

  readonly resolver: Ipv4Resolver = (name) => this.hosts.resolve(name);

  /** The status the operator published for an address (from the status ConfigMap). */
  async status(address: string): Promise<InstanceStatus | undefined> {
    const cm = await this.admin()
      .readNamespacedConfigMap({ name: 'windows-instances-status', namespace: OPERATOR_NAMESPACE })
      .catch(() => undefined);
    const raw = cm?.data?.[address];
    return raw ? (JSON.parse(raw) as InstanceStatus) : undefined;
  }

  async stop(): Promise<void> {
    await Promise.all(this.operators.map((o) => o.stop().catch(() => undefined)));
    await this.hosts.stop();
    await this.cluster.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}

export { SimulatedWindowsHost };
