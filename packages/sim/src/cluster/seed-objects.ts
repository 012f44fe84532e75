import { createHash } from 'node:crypto';
import type { JsonObject } from '../apiserver/json.js';
import {
  credentialProviderFlags,
  workerCredentialProvider,
  type WorkerCredentialProvider,
} from './worker-credential-providers.js';

/** The OpenShift-like configuration objects a seeded cluster starts with. */
export interface SeedInput {
  readonly platform: string;
  readonly apiServerUrl: string;
  readonly infrastructureName: string;
  readonly caPem: string;
  readonly vxlanPort: number;
  readonly hybridClusterNetwork: string;
  readonly cloudProvider?: string;
}

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

export function infrastructure(i: SeedInput): JsonObject {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Infrastructure',
    metadata: { name: 'cluster' },
    spec: { cloudConfig: { name: '' }, platformSpec: { type: i.platform } },
    status: {
      infrastructureName: i.infrastructureName,
      platform: i.platform,
      platformStatus: { type: i.platform },
      etcdDiscoveryDomain: '',
      apiServerURL: i.apiServerUrl,
      // The wire name is apiServerInternalURI (Go field APIServerInternalURL).
      apiServerInternalURI: i.apiServerUrl,
      controlPlaneTopology: 'HighlyAvailable',
      infrastructureTopology: 'HighlyAvailable',
      cpuPartitioning: 'None',
    },
  };
}

const CLUSTER_NETWORK = [{ cidr: '10.128.0.0/14', hostPrefix: 23 }];
const SERVICE_NETWORK = ['172.30.0.0/16'];

export function networkConfig(): JsonObject {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Network',
    metadata: { name: 'cluster' },
    spec: { clusterNetwork: CLUSTER_NETWORK, serviceNetwork: SERVICE_NETWORK, networkType: 'OVNKubernetes' },
    status: {
      clusterNetwork: CLUSTER_NETWORK,
      serviceNetwork: SERVICE_NETWORK,
      networkType: 'OVNKubernetes',
      clusterNetworkMTU: 1400,
    },
  };
}

export function networkOperator(i: SeedInput): JsonObject {
  return {
    apiVersion: 'operator.openshift.io/v1',
    kind: 'Network',
    metadata: { name: 'cluster' },
    spec: {
      clusterNetwork: CLUSTER_NETWORK,
      serviceNetwork: SERVICE_NETWORK,
      managementState: 'Managed',
      defaultNetwork: {
        type: 'OVNKubernetes',
        ovnKubernetesConfig: {
          mtu: 1400,
          genevePort: 6081,
          hybridOverlayConfig: {
            hybridClusterNetwork: [{ cidr: i.hybridClusterNetwork, hostPrefix: 23 }],
            hybridOverlayVXLANPort: i.vxlanPort,
          },
        },
      },
    },
  };
}

export function clusterSingleton(kind: string): JsonObject {
  return { apiVersion: 'config.openshift.io/v1', kind, metadata: { name: 'cluster' }, spec: {} };
}

export function controllerConfig(i: SeedInput): JsonObject {
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'ControllerConfig',
    metadata: { name: 'machine-config-controller' },
    spec: {
      kubeAPIServerServingCAData: b64(i.caPem),
      rootCAData: b64(i.caPem),
      clusterDNSIP: '172.30.0.10',
      platform: i.platform.toLowerCase(),
      imageRegistryBundleUserData: [],
      imageRegistryBundleData: [],
    },
  };
}

function kubeletUnit(
  cloudProvider: string | undefined,
  credentials: WorkerCredentialProvider | undefined,
): string {
  const extra = [
    ...(cloudProvider === undefined ? [] : [`--cloud-provider=${cloudProvider}`]),
    ...(credentials === undefined ? [] : credentialProviderFlags(credentials)),
  ];
  return [
    '[Unit]',
    'Description=Kubernetes Kubelet',
    'Wants=rpc-statd.service network-online.target',
    'After=network-online.target',
    '',
    '[Service]',
    'Type=notify',
    'ExecStart=/usr/local/bin/kubenswrapper /usr/bin/kubelet \\',
    '    --config=/etc/kubernetes/kubelet.conf \\',
    '    --bootstrap-kubeconfig=/etc/kubernetes/kubeconfig \\',
    '    --kubeconfig=/var/lib/kubelet/kubeconfig \\',
    '    --container-runtime-endpoint=/var/run/crio/crio.sock \\',
    '    --node-labels=node-role.kubernetes.io/worker,node.openshift.io/os_id=${ID} \\',
    `    --node-ip=\${KUBELET_NODE_IP} \\`,
    `    --minimum-container-ttl-duration=6m0s \\`,
    ...extra.map((f) => `    ${f} \\`),
    '    --volume-plugin-dir=/etc/kubernetes/kubelet-plugins/volume/exec \\',
    '    --v=2',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
}

export function renderedWorker(i: SeedInput): JsonObject {
  const credentials = workerCredentialProvider(i.platform);
  const config = {
    ignition: { version: '3.4.0' },
    storage: {
      files: [
        {
          path: '/etc/kubernetes/kubelet-ca.crt',
          mode: 420,
          contents: { source: `data:text/plain;charset=utf-8;base64,${b64(i.caPem)}` },
        },
        // Inline template contents are rendered as percent-encoded data URLs.
        ...(credentials
          ? [
              {
                path: credentials.path,
                mode: 420,
                contents: { source: `data:,${encodeURIComponent(credentials.content)}` },
              },
            ]
          : []),
      ],
    },
    systemd: {
      units: [
        { name: 'kubelet.service', enabled: true, contents: kubeletUnit(i.cloudProvider, credentials) },
      ],
    },
  };
  const hash = createHash('sha256').update(JSON.stringify(config)).digest('hex').slice(0, 32);
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfig',
    metadata: {
      name: `rendered-worker-${hash}`,
      annotations: { 'machineconfiguration.openshift.io/generated-by-controller-version': 'wmco-sim' },
      ownerReferences: [],
    },
    spec: { config, osImageURL: '', kernelArguments: [], extensions: [] },
  };
}

export function pullSecret(): JsonObject {
  const auths = { auths: { 'registry.sim.invalid': { auth: b64('sim:sim'), email: 'sim@example.invalid' } } };
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'pull-secret', namespace: 'openshift-config' },
    type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': b64(JSON.stringify(auths)) },
  };
}

export const NODE_BOOTSTRAPPER_NAMESPACE = 'openshift-machine-config-operator';
export const NODE_BOOTSTRAPPER = 'node-bootstrapper';

/** The service account whose token Windows kubelets bootstrap with (the MCO ships it). */
export function nodeBootstrapperServiceAccount(): JsonObject {
  return {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: NODE_BOOTSTRAPPER, namespace: NODE_BOOTSTRAPPER_NAMESPACE },
  };
}

/**
 * `openshift-machine-config-operator/node-bootstrapper-token` as OpenShift has it (reference §1.9): a
 * `kubernetes.io/service-account-token` Secret of service account `node-bootstrapper`, populated
 * (token, ca.crt, namespace) as the token controller populates it. Not a bootstrap-token Secret.
 */
export function nodeBootstrapperToken(caPem: string, token: string, serviceAccountUid: string): JsonObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 'node-bootstrapper-token',
      namespace: NODE_BOOTSTRAPPER_NAMESPACE,
      annotations: {
        'kubernetes.io/service-account.name': NODE_BOOTSTRAPPER,
        'kubernetes.io/service-account.uid': serviceAccountUid,
      },
    },
    type: 'kubernetes.io/service-account-token',
    data: { 'ca.crt': b64(caPem), token: b64(token), namespace: b64(NODE_BOOTSTRAPPER_NAMESPACE) },
  };
}

/**
 * The `windows-exporter` Service the operator's install brings (deploy/06-service.yaml, the bundle): no
 * selector; its annotation makes the service CA issue `windows-machine-config-operator-tls`.
 */
export function windowsExporterService(namespace: string): JsonObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: 'windows-exporter',
      namespace,
      labels: { name: 'windows-exporter' },
      annotations: {
        'service.alpha.openshift.io/serving-cert-secret-name': 'windows-machine-config-operator-tls',
      },
    },
    spec: { ports: [{ name: 'metrics', port: 9182, protocol: 'TCP', targetPort: 9182 }] },
  };
}

export const CLOUD_NODE_MANAGER_SERVICE_ACCOUNT = 'windows-cloud-node-manager';

/**
 * What deploy/1*-cloud-node-manager-*.yaml installs in the operator's namespace (as the operator's own
 * ServiceAccount is seeded): the `windows-cloud-node-manager` ServiceAccount and its token Secret, which
 * the token controller fills as kube-controller-manager's does. Its ClusterRole and binding are RBAC,
 * applied from deploy/ by the worlds that enforce RBAC.
 */
export function cloudNodeManagerIdentity(namespace: string): JsonObject[] {
  return [
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: CLOUD_NODE_MANAGER_SERVICE_ACCOUNT, namespace },
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: `${CLOUD_NODE_MANAGER_SERVICE_ACCOUNT}-token`,
        namespace,
        annotations: { 'kubernetes.io/service-account.name': CLOUD_NODE_MANAGER_SERVICE_ACCOUNT },
      },
      type: 'kubernetes.io/service-account-token',
    },
  ];
}
