import type { JsonObject } from '../apiserver/json.js';
import { bootstrapTokenSecret, newBootstrapToken } from './bootstrap-tokens.js';
import { OPENSHIFT_CRDS } from './openshift-crds.js';
import * as seed from './seed-objects.js';

/** What `wmco sim --cluster URL --seed` needs to know about the cluster it seeds. */
export interface AttachSeedInput {
  readonly platform: string;
  /** The API server URL the cluster's clients (and the simulated kubelets) use. */
  readonly apiServerUrl: string;
  /** The CA that signs the API server's serving certificate (PEM). */
  readonly caPem: string;
  readonly infrastructureName: string;
  /**
   * Non-OpenShift kubelet bootstrap (`--bootstrap-group`): seed a kubeadm-style bootstrap token in this
   * group instead of OpenShift's node-bootstrapper service account.
   */
  readonly bootstrapGroup?: string;
}

/** The OpenShift stand-ins attach mode may create: CRDs first, then the objects (created only where absent). */
export interface AttachSeed {
  readonly crds: readonly JsonObject[];
  readonly objects: readonly JsonObject[];
}

const rbac = 'rbac.authorization.k8s.io';

const OPENSHIFT_NAMESPACES = [
  'openshift-config',
  'openshift-config-managed',
  'openshift-machine-api',
  seed.NODE_BOOTSTRAPPER_NAMESPACE,
];

/**
 * The same OpenShift configuration the simulated cluster is seeded with (seed-objects.ts), for a cluster
 * reached only through its API: the node-bootstrapper token Secret is created empty, for the cluster's
 * own token controller to populate (as OpenShift's is), and the node-bootstrapper binding OpenShift's
 * machine-config-operator ships is included; with `bootstrapGroup`, a bootstrap token instead.
 */
export function attachSeed(i: AttachSeedInput): AttachSeed {
  const input: seed.SeedInput = {
    platform: i.platform,
    apiServerUrl: i.apiServerUrl,
    infrastructureName: i.infrastructureName,
    caPem: i.caPem,
    vxlanPort: 9898,
    hybridClusterNetwork: '10.132.0.0/14',
  };
  const objects: JsonObject[] = [
    ...OPENSHIFT_NAMESPACES.map((name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })),
    seed.infrastructure(input),
    seed.networkConfig(),
    seed.networkOperator(input),
    seed.clusterSingleton('Proxy'),
    seed.clusterSingleton('APIServer'),
    seed.controllerConfig(input),
    seed.renderedWorker(input),
    seed.pullSecret(),
    ...(i.bootstrapGroup === undefined
      ? nodeBootstrapper()
      : bootstrapTokenObjects(i.caPem, i.bootstrapGroup)),
  ];
  return { crds: OPENSHIFT_CRDS, objects };
}

/** OpenShift's way: the node-bootstrapper ServiceAccount, its binding, its token Secret (filled by the cluster). */
function nodeBootstrapper(): JsonObject[] {
  return [
    seed.nodeBootstrapperServiceAccount(),
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'system-bootstrap-node-bootstrapper' },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: 'system:node-bootstrapper',
      },
      subjects: [
        { kind: 'ServiceAccount', name: seed.NODE_BOOTSTRAPPER, namespace: seed.NODE_BOOTSTRAPPER_NAMESPACE },
      ],
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'node-bootstrapper-token',
        namespace: seed.NODE_BOOTSTRAPPER_NAMESPACE,
        annotations: { 'kubernetes.io/service-account.name': seed.NODE_BOOTSTRAPPER },
      },
      type: 'kubernetes.io/service-account-token',
    },
  ];
}

/**
 * A kubeadm-style bootstrap token in `group` (kube-system/bootstrap-token-<id>), its binding to
 * system:node-bootstrapper, and node-bootstrapper-token holding that token and the CA: the Secret the
 * operator reads the kubelets' bootstrap credentials from.
 */
function bootstrapTokenObjects(caPem: string, group: string): JsonObject[] {
  const t = newBootstrapToken();
  const extra = group === 'system:bootstrappers' ? [] : [group];
  const b64 = (v: string): string => Buffer.from(v, 'utf8').toString('base64');
  return [
    bootstrapTokenSecret(t.id, t.secret, extra),
    {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'wmco-sim-bootstrap-token-node-bootstrapper' },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'system:node-bootstrapper' },
      subjects: [{ apiGroup: rbac, kind: 'Group', name: group }],
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'node-bootstrapper-token', namespace: seed.NODE_BOOTSTRAPPER_NAMESPACE },
      type: 'Opaque',
      data: { 'ca.crt': b64(caPem), token: b64(t.token) },
    },
  ];
}
