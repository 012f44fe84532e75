import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { newRootContainer, type InstanceStatus, type WmcoProvider } from '@wmco/core';
import { DEFAULT_HOST_COSTS, OPERATOR_NAMESPACE, generateEd25519KeyPair, type HostCosts } from '@wmco/sim';
import { OperatorMetrics } from '../runtime/metrics.js';
import { createLogger } from '../runtime/logger.js';
import { OperatorRuntime } from '../runtime/operator-runtime.js';
import { Redactor } from '../runtime/redactor.js';
import { applyDeployRbac, operatorToken, writeOperatorKubeconfig } from './attach-identity.js';
import { ensureOpenShift } from './attach-seeding.js';
import { loadAttachTarget, type AttachTarget } from './attach-target.js';
import { HybridOverlayStandIn, realOvnKube } from './hybrid-overlay-standin.js';
import { writeSimPayload } from './sim-payload.js';
import { WorldHostSet, type SimHostSpec } from './world-hosts.js';

/** Marks the Secret and ConfigMap attach mode wrote, so a later run may replace them (and only them). */
export const ATTACH_LABEL = 'wmco.openshift.io/sim-attach';

export interface AttachWorldOptions {
  /** The kubeconfig of the cluster to attach to (`--cluster`); its user must be a cluster admin. */
  readonly kubeconfig: string;
  readonly hosts: readonly SimHostSpec[];
  /** Create OpenShift stand-ins the cluster lacks (`--seed`). */
  readonly seed: boolean;
  readonly platform: string;
  readonly providers: readonly WmcoProvider[];
  /** Non-OpenShift kubelet bootstrap identity (`--bootstrap-group`). */
  readonly bootstrapGroup?: string;
  readonly costs?: Partial<HostCosts>;
  /** Progress and the stand-in report, one line each. */
  readonly out: (line: string) => void;
  readonly logSink?: (line: string) => void;
}

/**
 * `wmco sim --cluster`: simulated Windows hosts and the operator against a cluster this process does not
 * run. The operator uses a token of deploy/'s ServiceAccount; the hosts' kubelets use the cluster's URL,
 * CA and CSR signer; stand-ins run only for what the cluster lacks.
 */
export class AttachWorld {
  private readonly stops: (() => Promise<void>)[] = [];

  private constructor(
    readonly target: AttachTarget,
    readonly hosts: WorldHostSet,
    readonly dir: string,
  ) {}

  static async start(o: AttachWorldOptions): Promise<AttachWorld> {
    const target = await loadAttachTarget(o.kubeconfig);
    o.out(`attached to ${target.server} (no API server started)`);
    (await ensureOpenShift(target, o)).forEach((l) => o.out(l));
    const rbac = await applyDeployRbac(target);
    o.out(`deploy/ RBAC: created ${rbac.created.length}, kept ${rbac.kept.length} existing`);
    const dir = await mkdtemp(join(tmpdir(), 'wmco-attach-'));
    const key = generateEd25519KeyPair();
    const hosts = await WorldHostSet.start(o.hosts, key.public, { ...DEFAULT_HOST_COSTS, ...o.costs });
    const world = new AttachWorld(target, hosts, dir);
    world.stops.push(
      () => hosts.stop(),
      () => rm(dir, { recursive: true, force: true }),
    );
    try {
      await world.standIns(o);
      await world.instances(key.private);
      await world.startOperator(o);
    } catch (e) {
      await world.stop();
      throw e;
    }
    return world;
  }

  private async standIns(o: AttachWorldOptions): Promise<void> {
    const real = await realOvnKube(this.target.kc);
    if (real !== undefined) {
      o.out(`hybrid-overlay: stand-in off, ${real}`);
      return;
    }
    const s = new HybridOverlayStandIn(this.target.kc, (e) => o.out(`hybrid-overlay stand-in: ${String(e)}`));
    s.start();
    this.stops.unshift(() => Promise.resolve(s.stop()));
    o.out('hybrid-overlay: stand-in on (no Node carries k8s.ovn.org/node-subnets: no ovnkube)');
  }

  /**
   * The SSH key Secret and the windows-instances ConfigMap, as the cluster admin puts them, labelled as
   * attach mode's; ones that exist without that label (a real cluster's own) are never replaced.
   */
  private async instances(privateKey: string): Promise<void> {
    const core = this.target.kc.makeApiClient(CoreV1Api);
    const namespace = OPERATOR_NAMESPACE;
    const metadata = (name: string): object => ({ name, namespace, labels: { [ATTACH_LABEL]: 'true' } });
    const key = { 'private-key.pem': Buffer.from(privateKey).toString('base64') };
    const data = Object.fromEntries(this.hosts.hosts.map((_, i) => this.hosts.entry(i)));
    const secret = await core
      .readNamespacedSecret({ name: 'cloud-private-key', namespace })
      .catch(() => undefined);
    const cm = await core
      .readNamespacedConfigMap({ name: 'windows-instances', namespace })
      .catch(() => undefined);
    for (const o of [secret, cm]) {
      if (o && o.metadata?.labels?.[ATTACH_LABEL] !== 'true')
        throw new Error(
          `${namespace}/${o.metadata?.name ?? ''} exists and is not attach mode's (no label ${ATTACH_LABEL}); ` +
            "attach mode does not replace a cluster's own Windows instances or SSH key: delete it first, or use another cluster",
        );
    }
    if (secret) await core.deleteNamespacedSecret({ name: 'cloud-private-key', namespace });
    await core.createNamespacedSecret({
      namespace,
      body: { metadata: metadata('cloud-private-key'), data: key },
    });
    if (cm) await core.deleteNamespacedConfigMap({ name: 'windows-instances', namespace });
    await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: metadata('windows-instances'), data },
    });
  }

  private async startOperator(o: AttachWorldOptions): Promise<void> {
    const { token, how } = await operatorToken(this.target);
    const kubeconfig = join(this.dir, 'operator.kubeconfig');
    await writeOperatorKubeconfig(this.target, token, kubeconfig);
    o.out(
      `operator: ServiceAccount ${OPERATOR_NAMESPACE}/windows-machine-config-operator (token from ${how})`,
    );
    const redactor = new Redactor();
    const sink = o.logSink ?? (() => undefined);
    const logger = createLogger({ level: 'debug', redactor, destination: { write: sink } });
    const rt = await OperatorRuntime.start({
      config: {
        kubeconfig,
        namespace: OPERATOR_NAMESPACE,
        payloadDir: await writeSimPayload(4096, join(this.dir, 'payload')),
        parallelJoins: 5,
        debug: false,
        logLevel: 'debug',
        probeAddress: '',
        leaderElection: true,
        identity: 'wmco-attach-0',
        privateKeySecret: 'cloud-private-key',
        providerPackages: [],
        servicesLog: {},
        proxyEnv: {},
        keepLogsOnRemoval: true,
        allowLoopbackInstances: true,
        ...(o.bootstrapGroup !== undefined ? { bootstrapGroup: o.bootstrapGroup } : {}),
      },
      providers: o.providers,
      container: newRootContainer(),
      logger,
      redactor,
      metrics: new OperatorMetrics({ defaultMetrics: false }),
      hooks: {
        sshOverrides: (address) => this.hosts.sshOverrides(address),
        resolver: (name) => this.hosts.resolve(name),
        timings: { nodeRegistrationMs: 60_000, nodeReadyMs: 60_000, pollMs: 100, keyRetryMs: 500 },
      },
    });
    this.stops.unshift(() => rt.stop());
  }

  /** The status the operator published for an address (from the status ConfigMap). */
  async status(address: string): Promise<InstanceStatus | undefined> {
    const cm = await this.target.kc
      .makeApiClient(CoreV1Api)
      .readNamespacedConfigMap({ name: 'windows-instances-status', namespace: OPERATOR_NAMESPACE })
      .catch(() => undefined);
    const raw = cm?.data?.[address];
    return raw ? (JSON.parse(raw) as InstanceStatus) : undefined;
  }

  /** Stops the operator, the stand-ins and the hosts; what was created in the cluster stays. */
  async stop(): Promise<void> {
    for (const s of this.stops.splice(0)) await s().catch(() => undefined);
  }
}
