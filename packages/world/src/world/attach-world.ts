import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { newRootContainer } from '@wmco/core';
import { type InstanceStatus } from '@wmco/core/internal';
import { type WmcoProvider } from '@wmco/core/provider';
import { DEFAULT_HOST_COSTS, OPERATOR_NAMESPACE, generateEd25519KeyPair, type HostCosts } from '@wmco/sim';
import { OperatorMetrics } from '@wmco/operator';
import { createLogger } from '@wmco/operator';
import { OperatorRuntime } from '@wmco/operator';
import { Redactor } from '@wmco/operator';
import { applyDeployRbac, operatorToken, writeOperatorKubeconfig } from './attach-identity.js';
import { checkInstancesAreOurs, writeInstances } from './attach-instances.js';
import type { AttachLedger } from './attach-ledger.js';
import { clearOwnLeftovers, nodeNameOf, refuseForeignLeftovers } from './attach-leftovers.js';
import { ATTACH_LABEL } from './attach-pins.js';
import { ensureOpenShift } from './attach-seeding.js';
import { loadAttachTarget, type AttachTarget } from './attach-target.js';
import { HybridOverlayStandIn, realOvnKube } from './hybrid-overlay-standin.js';
import { writeSimPayload } from './sim-payload.js';
import { WorldHostSet, type SimHostSpec } from './world-hosts.js';

export { ATTACH_LABEL };

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
  /** The operator's log, one JSON line per call (default: dropped). */
  readonly logSink?: (line: string) => void;
  /** `--cleanup`: told what existed before the run and each object it creates, for `cleanUp`. */
  readonly ledger?: AttachLedger;
}

/**
 * Everything that would stop a run, checked before it writes anything: a windows-instances or SSH key
 * Secret that is the cluster's own, and host-key pins under the run's host names that are not leftovers
 * of earlier simulated hosts (the node-bootstrapper token is checked by ensureOpenShift).
 */
async function precheck(target: AttachTarget, o: AttachWorldOptions): Promise<void> {
  await checkInstancesAreOurs(target.kc);
  await refuseForeignLeftovers(target.kc, o.hosts, o.out);
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
    await precheck(target, o);
    await o.ledger?.begin(target.kc);
    const onCreated = o.ledger?.record;
    (await ensureOpenShift(target, { ...o, onCreated })).forEach((l) => o.out(l));
    const rbac = await applyDeployRbac(target, onCreated);
    o.out(`deploy/ RBAC: created ${rbac.created.length}, kept ${rbac.kept.length} existing`);
    const dir = await mkdtemp(join(tmpdir(), 'wmco-attach-'));
    const key = generateEd25519KeyPair();
    const hosts = await WorldHostSet.start(o.hosts, key.public, { ...DEFAULT_HOST_COSTS, ...o.costs });
    const world = new AttachWorld(target, hosts, dir);
    if (o.ledger)
      o.ledger.hosts = {
        keys: hosts.hosts.map((_, i) => hosts.key(i)),
        addresses: hosts.hosts.map((h) => h.address),
        nodeNames: o.hosts.map(nodeNameOf),
      };
    world.stops.push(
      () => hosts.stop(),
      () => rm(dir, { recursive: true, force: true }),
    );
    try {
      await world.standIns(o);
      await world.instances(key.private, o);
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
   * Clears the pins and Nodes earlier attach-mode runs left for these hosts (precheck refused any other),
   * then writes the SSH key Secret and windows-instances.
   */
  private async instances(privateKey: string, o: AttachWorldOptions): Promise<void> {
    // The operator pins a DNS-listed host under its name and its address.
    const keys = this.hosts.hosts.flatMap((h, i) => [this.hosts.key(i), h.address]);
    await clearOwnLeftovers(this.target.kc, [...new Set(keys)], o.hosts.map(nodeNameOf), o.out);
    const data = Object.fromEntries(this.hosts.hosts.map((_, i) => this.hosts.entry(i)));
    await writeInstances(this.target.kc, privateKey, data, o.ledger?.record);
  }

  private async startOperator(o: AttachWorldOptions): Promise<void> {
    const { token, how } = await operatorToken(this.target, o.ledger?.record);
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
