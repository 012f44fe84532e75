import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { SimApiServer, type SimUser } from '../apiserver/api-server.js';
import { bootstrapTokenLookup, newBootstrapToken } from './bootstrap-tokens.js';
import type { ErrorSink, SimController } from './controller.js';
import { CsrSigner } from './csr-signer.js';
import { GarbageCollector } from './garbage-collector.js';
import { HybridOverlayAnnotator } from './hybrid-overlay.js';
import { LinuxNodes } from './linux-nodes.js';
import { NamespaceController } from './namespace-controller.js';
import { NodeLifecycle } from './node-lifecycle.js';
import { ServiceCaController } from './service-ca.js';
import { ServiceAccountTokenController } from './token-controller.js';
import { MachineActuator } from '../machines/machine-actuator.js';
import { MachineApprover } from '../machines/machine-approver.js';
import type { MachineInstanceLauncher } from '../machines/machine-instances.js';
import { MachineSetController } from '../machines/machine-set-controller.js';
import { OPERATOR_NAMESPACE, OPERATOR_SERVICE_ACCOUNT, seedCluster } from './seed-cluster.js';
import { NODE_BOOTSTRAPPER, NODE_BOOTSTRAPPER_NAMESPACE } from './seed-objects.js';
import type * as seed from './seed-objects.js';

export { OPERATOR_NAMESPACE, OPERATOR_SERVICE_ACCOUNT };

export interface SimClusterOptions {
  /** Infrastructure platform type (AWS, Azure, GCP, VSphere, Nutanix, None, BareMetal, ...). Default None. */
  readonly platform?: string;
  readonly rbac?: boolean;
  /** Node lifecycle: seconds without a heartbeat before NotReady (default 40). */
  readonly nodeGracePeriodSeconds?: number;
  readonly nodeLifecycleIntervalMs?: number;
  /** `--cloud-provider` value in the rendered worker kubelet unit; omitted when undefined. */
  readonly cloudProvider?: string;
  readonly vxlanPort?: number;
  readonly hybridClusterNetwork?: string;
  /**
   * Creates the VMs behind Machines: with it the machine-api runs (MachineSet controller, Machine
   * actuator); the machine approver runs always, as on every OpenShift cluster.
   */
  readonly machineInstances?: MachineInstanceLauncher;
  /** Called when a controller fails (default: collected in `errors`). */
  readonly onControllerError?: ErrorSink;
}

export interface SimCluster {
  readonly server: SimApiServer;
  readonly admin: SimUser;
  readonly operator: SimUser;
  /** `<id>.<secret>`, authenticates as system:bootstrap:<id> in system:bootstrappers (kubeadm style). */
  readonly bootstrapToken: string;
  /**
   * The `node-bootstrapper` service account's token, as in `node-bootstrapper-token`: authenticates as
   * system:serviceaccount:openshift-machine-config-operator:node-bootstrapper (what OpenShift kubelets use).
   */
  readonly nodeBootstrapperToken: string;
  readonly infrastructureName: string;
  readonly platform: string;
  readonly controllers: readonly SimController[];
  /** The service CA stand-in: serving-cert Secrets for annotated Services, signed by `serviceCa.caPem`. */
  readonly serviceCa: ServiceCaController;
  /** The Machine actuator, when `machineInstances` was given. */
  readonly machineActuator: MachineActuator | undefined;
  readonly errors: readonly { controller: string; error: unknown }[];
  /** Starts one more controller against this cluster's store (e.g. a cloud's credential minter); stopped with it. */
  addController(c: SimController): void;
  /** Reports a controller failure as the built-in controllers do. */
  readonly onControllerError: ErrorSink;
  /** Writes admin.kubeconfig, operator.kubeconfig and bootstrap.kubeconfig into `dir`; returns their paths. */
  writeKubeconfigs(dir: string): Promise<{ admin: string; operator: string; bootstrap: string }>;
  stop(): Promise<void>;
}

function seedInput(opts: SimClusterOptions, server: SimApiServer): seed.SeedInput {
  return {
    platform: opts.platform ?? 'None',
    apiServerUrl: server.url,
    infrastructureName: `sim-${randomBytes(3).toString('hex').slice(0, 5)}`,
    caPem: server.caPem,
    vxlanPort: opts.vxlanPort ?? 9898,
    hybridClusterNetwork: opts.hybridClusterNetwork ?? '10.132.0.0/14',
    ...(opts.cloudProvider !== undefined ? { cloudProvider: opts.cloudProvider } : {}),
  };
}

/** Starts the simulated API server with its controllers and an OpenShift-like cluster seeded in it. */
export async function startSimCluster(opts: SimClusterOptions = {}): Promise<SimCluster> {
  const server = await SimApiServer.start({ rbac: opts.rbac ?? false });
  const errors: { controller: string; error: unknown }[] = [];
  const onError: ErrorSink =
    opts.onControllerError ?? ((controller, error) => errors.push({ controller, error }));
  const w = server.writer;
  const grace = opts.nodeGracePeriodSeconds ?? 40;
  // The stand-in Linux kubelets renew their Leases well within the grace period (every 10 s at most).
  const linux = new LinuxNodes(
    w,
    [
      { name: 'master-0', role: 'master' },
      { name: 'worker-0', role: 'worker' },
    ],
    Math.min(10_000, (grace * 1000) / 4),
  );
  const controllers: SimController[] = [
    new GarbageCollector(w, onError),
    new NamespaceController(w, onError),
    new CsrSigner(w, server.ca, onError),
    new HybridOverlayAnnotator(w, onError),
    new NodeLifecycle(
      w,
      {
        gracePeriodSeconds: grace,
        intervalMs: opts.nodeLifecycleIntervalMs ?? 1000,
      },
      onError,
    ),
    linux,
    new MachineApprover(w, onError),
  ];
  const machineActuator = opts.machineInstances
    ? new MachineActuator(w, onError, opts.platform ?? 'None', opts.machineInstances)
    : undefined;
  if (machineActuator) controllers.push(new MachineSetController(w, onError), machineActuator);
  const saTokens = new ServiceAccountTokenController(w, server.caPem, onError);
  const serviceCa = await ServiceCaController.create(w, onError);
  controllers.push(saTokens, serviceCa);
  controllers.forEach((c) => c.start());
  server.authn.addLookup(bootstrapTokenLookup(w));
  server.authn.addLookup(saTokens.lookup());
  const input = seedInput(opts, server);
  const boot = { ...newBootstrapToken(), nodeBootstrapperToken: randomBytes(32).toString('base64url') };
  try {
    seedCluster(server, input, boot);
    linux.create();
    // The seeded Services' serving certificates exist before anyone looks (as after an install).
    await serviceCa.settle();
  } catch (e) {
    // Never leave a half-seeded server listening.
    controllers.forEach((c) => c.stop());
    await server.stop();
    throw e;
  }
  const operator = server.addServiceAccount(OPERATOR_NAMESPACE, OPERATOR_SERVICE_ACCOUNT);
  server.addServiceAccount(NODE_BOOTSTRAPPER_NAMESPACE, NODE_BOOTSTRAPPER, boot.nodeBootstrapperToken);
  return {
    server,
    admin: server.admin,
    operator,
    bootstrapToken: boot.token,
    nodeBootstrapperToken: boot.nodeBootstrapperToken,
    infrastructureName: input.infrastructureName,
    platform: input.platform,
    controllers,
    serviceCa,
    machineActuator,
    errors,
    onControllerError: onError,
    addController(c: SimController): void {
      controllers.push(c);
      c.start();
    },
    async writeKubeconfigs(dir: string): Promise<{ admin: string; operator: string; bootstrap: string }> {
      const bootstrap: SimUser = {
        user: { name: 'bootstrap', groups: ['system:bootstrappers'] },
        token: boot.token,
      };
      const files = {
        admin: join(dir, 'admin.kubeconfig'),
        operator: join(dir, 'operator.kubeconfig'),
        bootstrap: join(dir, 'bootstrap.kubeconfig'),
      };
      await server.writeKubeconfig(files.admin, server.admin);
      await server.writeKubeconfig(files.operator, operator);
      await server.writeKubeconfig(files.bootstrap, bootstrap);
      return files;
    },
    async stop(): Promise<void> {
      controllers.forEach((c) => c.stop());
      await server.stop();
    },
  };
}
