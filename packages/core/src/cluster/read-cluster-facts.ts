import type { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import type { ClusterNetworkFacts } from '../desired/cluster-facts.js';
import { checkMirrorEntries, type MirrorProblem } from '../desired/mirror-entry-check.js';
import type { ImageMirrorEntry } from '../desired/mirror-sets.js';
import { isNotFound } from '../kube/client/api-errors.js';
import type { ClusterFacts } from '../desired/cluster-facts.js';
import { readExporterTls } from './read-exporter-tls.js';
import { readCloudNodeManagerToken } from './read-cloud-node-manager-token.js';
import { readClusterProxy } from './read-proxy.js';
import { readTrustedCa, registryBundles } from './read-trusted-ca.js';
import { workerIgnitionFacts, type WorkerIgnitionFacts } from '../desired/worker-ignition.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null ? (v as Obj) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const b64 = (v: unknown): string => Buffer.from(str(v) ?? '', 'base64').toString('utf8');

/** Raised when a cluster object the operator needs is missing or incomplete; the message says which. */
export class ClusterFactsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClusterFactsError';
  }
}

async function getCluster(
  api: CustomObjectsApi,
  group: string,
  plural: string,
  name = 'cluster',
): Promise<Obj> {
  try {
    return obj(await api.getClusterCustomObject({ group, version: 'v1', plural, name }));
  } catch (err) {
    if (isNotFound(err)) throw new ClusterFactsError(`${plural}.${group}/${name} not found`);
    throw err;
  }
}

type MirrorList = { entries: ImageMirrorEntry[]; problems: MirrorProblem[] };

/** Every usable entry of every IDMS (or ITMS); an unusable entry is skipped with a problem, not thrown. */
async function listMirrors(api: CustomObjectsApi, kind: string, field: string): Promise<MirrorList> {
  const plural = `${kind.toLowerCase()}s`;
  const list = obj(
    await api.listClusterCustomObject({ group: 'config.openshift.io', version: 'v1', plural }),
  );
  const out: MirrorList = { entries: [], problems: [] };
  for (const item of (list['items'] as unknown[] | undefined) ?? []) {
    const raw = obj(obj(item)['spec'])[field];
    const name = str(obj(obj(item)['metadata'])['name']) ?? '?';
    const { valid, problems } = checkMirrorEntries(Array.isArray(raw) ? raw : [], { kind, name });
    out.entries.push(...valid);
    out.problems.push(...problems);
  }
  return out;
}

async function secretData(
  core: CoreV1Api,
  namespace: string,
  name: string,
): Promise<Record<string, string> | undefined> {
  try {
    return (await core.readNamespacedSecret({ name, namespace })).data ?? {};
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

function networkFacts(config: Obj, operator: Obj): ClusterNetworkFacts {
  const status = obj(config['status']);
  const spec = obj(config['spec']);
  const ovn = obj(obj(obj(operator['spec'])['defaultNetwork'])['ovnKubernetesConfig']);
  const facts: Record<string, unknown> = {
    networkType: str(status['networkType']) ?? str(spec['networkType']),
    serviceNetwork: status['serviceNetwork'] ?? spec['serviceNetwork'],
    clusterNetwork: status['clusterNetwork'] ?? spec['clusterNetwork'],
  };
  if (Object.keys(ovn).length > 0) facts['ovnKubernetesConfig'] = ovn;
  return facts;
}

function infrastructureFacts(infra: Obj): { platform: string; apiUrl: string; name: string } {
  const status = obj(infra['status']);
  const platform = str(obj(status['platformStatus'])['type']);
  if (!platform) throw new ClusterFactsError('infrastructure/cluster has no status.platformStatus.type');
  const apiUrl = str(status['apiServerInternalURI']) ?? str(status['apiServerInternalURL']);
  if (!apiUrl) throw new ClusterFactsError('infrastructure/cluster has no status.apiServerInternalURI');
  return { platform, apiUrl, name: str(status['infrastructureName']) ?? '' };
}

async function bootstrapFacts(core: CoreV1Api): Promise<{ caCrt: string; token: string }> {
  const boot = await secretData(core, 'openshift-machine-config-operator', 'node-bootstrapper-token');
  if (!boot?.['ca.crt'] || !boot['token']) {
    throw new ClusterFactsError(
      'secret openshift-machine-config-operator/node-bootstrapper-token lacks ca.crt or token',
    );
  }
  return { caCrt: b64(boot['ca.crt']), token: b64(boot['token']) };
}

async function mirrorFacts(
  custom: CustomObjectsApi,
): Promise<Pick<ClusterFacts, 'digestMirrors' | 'tagMirrors' | 'mirrorProblems'>> {
  const digest = await listMirrors(custom, 'ImageDigestMirrorSet', 'imageDigestMirrors');
  const tag = await listMirrors(custom, 'ImageTagMirrorSet', 'imageTagMirrors');
  return {
    digestMirrors: digest.entries,
    tagMirrors: tag.entries,
    mirrorProblems: [...digest.problems, ...tag.problems],
  };
}

/**
 * The Linux workers' kubelet cloud flags and the files a Windows node copies from their ignition
 * (reference §1.6 step 2). A cluster without a rendered worker MachineConfig (not OpenShift) gives none.
 */
async function workerFacts(custom: CustomObjectsApi): Promise<WorkerIgnitionFacts> {
  const list = obj(
    await custom.listClusterCustomObject({
      group: 'machineconfiguration.openshift.io',
      version: 'v1',
      plural: 'machineconfigs',
    }),
  );
  return workerIgnitionFacts((list['items'] as unknown[] | undefined) ?? []);
}

/** The inputs of `C:\k\ca-bundle.crt`: the trusted CA only counts when there is a proxy, as upstream. */
async function caBundleFacts(
  core: CoreV1Api,
  spec: unknown,
  o: { namespace: string | undefined; proxy: Record<string, string> | undefined },
): Promise<Pick<ClusterFacts, 'caBundle'>> {
  if (o.namespace === undefined) return {};
  const hasProxy = o.proxy !== undefined && Object.keys(o.proxy).length > 0;
  const trusted = hasProxy ? await readTrustedCa(core, o.namespace) : undefined;
  return {
    caBundle: {
      userBundles: registryBundles(spec, 'imageRegistryBundleUserData'),
      bundles: registryBundles(spec, 'imageRegistryBundleData'),
      ...(trusted ? { proxyTrustedCa: trusted } : {}),
    },
  };
}

async function exporterTlsFacts(
  core: CoreV1Api,
  namespace: string | undefined,
): Promise<Pick<ClusterFacts, 'exporterTls'>> {
  const tls = namespace === undefined ? undefined : await readExporterTls(core, namespace);
  return tls ? { exporterTls: tls } : {};
}

async function cloudNodeManagerFacts(
  core: CoreV1Api,
  namespace: string | undefined,
): Promise<Pick<ClusterFacts, 'cloudNodeManagerToken'>> {
  const token = namespace === undefined ? undefined : await readCloudNodeManagerToken(core, namespace);
  return token ? { cloudNodeManagerToken: token } : {};
}

/**
 * Reads every cluster object a join needs (reference §1.2, §1.6 step 2); with the operator's namespace
 * also the `trusted-ca` bundle, windows_exporter's certificate and the cloud node manager's token
 * (`caBundle`, `exporterTls`, `cloudNodeManagerToken`).
 */
export async function readClusterFacts(
  core: CoreV1Api,
  custom: CustomObjectsApi,
  namespace?: string,
): Promise<ClusterFacts> {
  const [infra, netConfig, netOperator, controllerConfig] = await Promise.all([
    getCluster(custom, 'config.openshift.io', 'infrastructures'),
    getCluster(custom, 'config.openshift.io', 'networks'),
    getCluster(custom, 'operator.openshift.io', 'networks'),
    getCluster(custom, 'machineconfiguration.openshift.io', 'controllerconfigs', 'machine-config-controller'),
  ]);
  const { platform, apiUrl, name } = infrastructureFacts(infra);
  const network = networkFacts(netConfig, netOperator);
  const serviceCidr = network.serviceNetwork?.[0];
  if (!serviceCidr) throw new ClusterFactsError('network.config.openshift.io/cluster has no service network');
  const kubeletCaPem = b64(obj(controllerConfig['spec'])['kubeAPIServerServingCAData']);
  if (!kubeletCaPem) {
    throw new ClusterFactsError('cannot find kubelet-ca: ControllerConfig has no kubeAPIServerServingCAData');
  }
  const pull = await secretData(core, 'openshift-config', 'pull-secret');
  const port = network.ovnKubernetesConfig?.hybridOverlayConfig?.hybridOverlayVXLANPort;
  const proxy = await readClusterProxy(custom);
  return {
    platform,
    infrastructureName: name,
    apiServerInternalUrl: apiUrl,
    network,
    serviceCidr,
    vxlanPort: port === undefined ? '' : String(port),
    kubeletCaPem,
    bootstrap: await bootstrapFacts(core),
    ...(pull?.['.dockerconfigjson'] ? { pullSecret: b64(pull['.dockerconfigjson']) } : {}),
    ...(await mirrorFacts(custom)),
    ...(await workerFacts(custom)),
    ...(proxy === undefined ? {} : { proxy }),
    ...(await caBundleFacts(core, controllerConfig['spec'], { namespace, proxy })),
    ...(await exporterTlsFacts(core, namespace)),
    ...(await cloudNodeManagerFacts(core, namespace)),
  };
}
