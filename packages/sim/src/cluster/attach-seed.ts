import type { JsonObject } from '../apiserver/json.js';
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
}

/** The OpenShift stand-ins attach mode may create: CRDs first, then the objects (created only where absent). */
export interface AttachSeed {
  readonly crds: readonly JsonObject[];
  readonly objects: readonly JsonObject[];
}

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
 * machine-config-operator ships is included.
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
  return { crds: OPENSHIFT_CRDS, objects };
}
