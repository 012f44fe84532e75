import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { SimApiServer, type SimUser } from '../apiserver/api-server.js';
import type { JsonObject } from '../apiserver/json.js';
import { meta, str } from '../apiserver/json.js';
import { hasStatus } from '../apiserver/resource-type.js';
import { bootstrapTokenLookup, bootstrapTokenSecret, newBootstrapToken } from './bootstrap-tokens.js';
import type { ErrorSink, SimController } from './controller.js';
import { CsrSigner } from './csr-signer.js';
import { DEFAULT_CLUSTER_ROLE_BINDINGS, DEFAULT_CLUSTER_ROLES } from './default-rbac.js';
import { GarbageCollector } from './garbage-collector.js';
import { HybridOverlayAnnotator } from './hybrid-overlay.js';
import { LinuxNodes } from './linux-nodes.js';
import { NamespaceController } from './namespace-controller.js';
import { NodeLifecycle } from './node-lifecycle.js';
import { OPENSHIFT_CRDS } from './openshift-crds.js';
import * as seed from './seed-objects.js';

export const OPERATOR_NAMESPACE = 'openshift-windows-machine-config-operator';
export const OPERATOR_SERVICE_ACCOUNT = 'windows-machine-config-operator';

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
  /** Called when a controller fails (default: collected in `errors`). */
  readonly onControllerError?: ErrorSink;
}

export interface SimCluster {
  readonly server: SimApiServer;
  readonly admin: SimUser;
  readonly operator: SimUser;
  /** `<id>.<secret>`, authenticates as system:bootstrap:<id> in system:bootstrappers. */
  readonly bootstrapToken: string;
  readonly infrastructureName: string;
  readonly platform: string;
  readonly controllers: readonly SimController[];
  readonly errors: readonly { controller: string; error: unknown }[];
  /** Writes admin.kubeconfig, operator.kubeconfig and bootstrap.kubeconfig into `dir`; returns their paths. */
  writeKubeconfigs(dir: string): Promise<{ admin: string; operator: string; bootstrap: string }>;
  stop(): Promise<void>;
}

const NAMESPACES = [
  'default',
  'kube-system',
  'kube-public',
  'kube-node-lease',
  'openshift-config',
  'openshift-config-managed',
  'openshift-machine-api',
  'openshift-machine-config-operator',
];

function put(server: SimApiServer, o: JsonObject): void {
  const t = server.registry.byKind(str(o['apiVersion']) ?? '', str(o['kind']) ?? '');
  if (!t) throw new Error(`seed: no served type for ${str(o['apiVersion']) ?? ''} ${str(o['kind']) ?? ''}`);
  const ns = str(meta(o)['namespace']);
  const created = server.writer.create(t, ns, o);
  if (hasStatus(t) && o['status'] !== undefined) {
    const name = str(meta(created)['name']) ?? '';
    server.writer.update(
      { type: t, namespace: ns, name, subresource: 'status' },
      { ...created, status: o['status'] },
    );
  }
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
  ];
  controllers.forEach((c) => c.start());
  server.authn.addLookup(bootstrapTokenLookup(w));
  [...DEFAULT_CLUSTER_ROLES, ...DEFAULT_CLUSTER_ROLE_BINDINGS].forEach((o) => put(server, o));
  NAMESPACES.forEach((name) => put(server, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }));
  put(server, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: OPERATOR_NAMESPACE, labels: { 'openshift.io/cluster-monitoring': 'true' } },
  });
  OPENSHIFT_CRDS.forEach((o) => put(server, o));
  const platform = opts.platform ?? 'None';
  const input: seed.SeedInput = {
    platform,
    apiServerUrl: server.url,
    infrastructureName: `sim-${randomBytes(3).toString('hex').slice(0, 5)}`,
    caPem: server.caPem,
    vxlanPort: opts.vxlanPort ?? 9898,
    hybridClusterNetwork: opts.hybridClusterNetwork ?? '10.132.0.0/14',
    ...(opts.cloudProvider !== undefined ? { cloudProvider: opts.cloudProvider } : {}),
  };
  const boot = newBootstrapToken();
  [
    seed.infrastructure(input),
    seed.networkConfig(),
    seed.networkOperator(input),
    seed.clusterSingleton('Proxy'),
    seed.clusterSingleton('APIServer'),
    seed.controllerConfig(input),
    seed.renderedWorker(input),
    seed.pullSecret(),
    bootstrapTokenSecret(boot.id, boot.secret, ['system:bootstrappers:worker']),
    seed.nodeBootstrapperToken(server.caPem, boot.token),
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: OPERATOR_SERVICE_ACCOUNT, namespace: OPERATOR_NAMESPACE },
    },
  ].forEach((o) => put(server, o));
  linux.create();
  const operator = server.addServiceAccount(OPERATOR_NAMESPACE, OPERATOR_SERVICE_ACCOUNT);
  return {
    server,
    admin: server.admin,
    operator,
    bootstrapToken: boot.token,
    infrastructureName: input.infrastructureName,
    platform,
    controllers,
    errors,
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
