import type { JsonObject } from '../apiserver/json.js';
import { MACHINE_API_CRDS } from './machine-api-crds.js';
import { CREDENTIALS_REQUEST_CRD } from './cloud-credential-crds.js';
import { arr, bool, conditions, crd, int, intOrString, obj, open, str } from './schema-kit.js';

/**
 * The OpenShift and monitoring CRDs the operator reads and writes, with structural schemas for the fields it
 * touches; subtrees upstream leaves open (platformSpec, ignition config, ...) preserve unknown fields.
 */
const CONFIG = 'config.openshift.io';
const MCO = 'machineconfiguration.openshift.io';

const cluster = (kind: string, plural: string, spec: JsonObject, status: JsonObject): JsonObject =>
  crd({ group: CONFIG, version: 'v1', kind, plural, namespaced: false, spec, status });

const infrastructure = cluster(
  'Infrastructure',
  'infrastructures',
  obj({ cloudConfig: obj({ key: str, name: str }), platformSpec: open }),
  obj({
    infrastructureName: str,
    platform: str,
    platformStatus: open,
    etcdDiscoveryDomain: str,
    apiServerURL: str,
    apiServerInternalURI: str,
    controlPlaneTopology: str,
    infrastructureTopology: str,
    cpuPartitioning: str,
  }),
);

const networkEntry = arr(obj({ cidr: str, hostPrefix: int }));
const networkConfig = cluster(
  'Network',
  'networks',
  obj({
    clusterNetwork: networkEntry,
    serviceNetwork: arr(str),
    networkType: str,
    externalIP: open,
    networkDiagnostics: open,
  }),
  obj({
    clusterNetwork: networkEntry,
    serviceNetwork: arr(str),
    networkType: str,
    clusterNetworkMTU: int,
    conditions,
  }),
);

const proxy = cluster(
  'Proxy',
  'proxies',
  obj({
    httpProxy: str,
    httpsProxy: str,
    noProxy: str,
    readinessEndpoints: arr(str),
    trustedCA: obj({ name: str }),
  }),
  obj({ httpProxy: str, httpsProxy: str, noProxy: str }),
);

const apiServer = cluster(
  'APIServer',
  'apiservers',
  obj({
    servingCerts: open,
    clientCA: obj({ name: str }),
    additionalCORSAllowedOrigins: arr(str),
    encryption: open,
    tlsSecurityProfile: open,
    audit: open,
  }),
  open,
);

const mirrors = (kind: string, plural: string, listField: string): JsonObject =>
  cluster(
    kind,
    plural,
    obj({ [listField]: arr(obj({ source: str, mirrors: arr(str), mirrorSourcePolicy: str })) }),
    open,
  );

const operatorNetwork = crd({
  group: 'operator.openshift.io',
  version: 'v1',
  kind: 'Network',
  plural: 'networks',
  namespaced: false,
  spec: obj({
    clusterNetwork: networkEntry,
    serviceNetwork: arr(str),
    defaultNetwork: obj({
      type: str,
      ovnKubernetesConfig: obj(
        {
          mtu: int,
          genevePort: int,
          hybridOverlayConfig: obj({ hybridClusterNetwork: networkEntry, hybridOverlayVXLANPort: int }),
        },
        { 'x-kubernetes-preserve-unknown-fields': true },
      ),
    }),
    managementState: str,
    logLevel: str,
    operatorLogLevel: str,
    disableNetworkDiagnostics: bool,
  }),
  status: open,
});

const controllerConfig = crd({
  group: MCO,
  version: 'v1',
  kind: 'ControllerConfig',
  plural: 'controllerconfigs',
  namespaced: false,
  spec: obj(
    {
      kubeAPIServerServingCAData: str,
      rootCAData: str,
      imageRegistryBundleUserData: arr(obj({ file: str, data: str })),
      imageRegistryBundleData: arr(obj({ file: str, data: str })),
      additionalTrustBundle: str,
      clusterDNSIP: str,
      platform: str,
      infra: open,
      network: open,
      proxy: open,
    },
    { 'x-kubernetes-preserve-unknown-fields': true },
  ),
  status: open,
});

const machineConfig = crd({
  group: MCO,
  version: 'v1',
  kind: 'MachineConfig',
  plural: 'machineconfigs',
  namespaced: false,
  shortNames: ['mc'],
  spec: obj({
    config: open,
    osImageURL: str,
    baseOSExtensionsContainerImage: str,
    kernelArguments: arr(str),
    extensions: arr(str),
    fips: bool,
    kernelType: str,
  }),
});

const serviceMonitor = crd({
  group: 'monitoring.coreos.com',
  version: 'v1',
  kind: 'ServiceMonitor',
  plural: 'servicemonitors',
  namespaced: true,
  shortNames: ['smon'],
  spec: obj({
    jobLabel: str,
    selector: open,
    namespaceSelector: obj({ any: bool, matchNames: arr(str) }),
    serviceDiscoveryRole: str,
    attachMetadata: obj({ node: bool }),
    endpoints: arr(
      obj({
        port: str,
        targetPort: intOrString,
        path: str,
        scheme: str,
        interval: str,
        scrapeTimeout: str,
        bearerTokenFile: str,
        tlsConfig: open,
        relabelings: arr(open),
        metricRelabelings: arr(open),
        honorLabels: bool,
      }),
    ),
  }),
});

const prometheusRule = crd({
  group: 'monitoring.coreos.com',
  version: 'v1',
  kind: 'PrometheusRule',
  plural: 'prometheusrules',
  namespaced: true,
  shortNames: ['promrule'],
  spec: obj({ groups: arr(obj({ name: str, interval: str, rules: arr(open) })) }),
});

export const OPENSHIFT_CRDS: readonly JsonObject[] = [
  ...MACHINE_API_CRDS,
  infrastructure,
  networkConfig,
  proxy,
  apiServer,
  mirrors('ImageDigestMirrorSet', 'imagedigestmirrorsets', 'imageDigestMirrors'),
  mirrors('ImageTagMirrorSet', 'imagetagmirrorsets', 'imageTagMirrors'),
  operatorNetwork,
  controllerConfig,
  machineConfig,
  serviceMonitor,
  prometheusRule,
  CREDENTIALS_REQUEST_CRD,
];
