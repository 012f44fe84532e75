import { writeFile } from 'node:fs/promises';
import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import type { SimCloud } from './sim-clouds.js';

const CONFIG = { group: 'config.openshift.io', version: 'v1' } as const;
/**
 * The ConfigMap (openshift-config) that proxy/cluster .spec.trustedCA names, holding the cloud's CA: the
 * name OpenShift's installer gives it (`additionalTrustBundle`), the one the operator's Role may read.
 */
export const SIM_CLOUD_CA_CONFIGMAP = 'user-ca-bundle';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' ? (v as Obj) : {});

/**
 * Points the cluster at a simulated cloud the way a real cluster with custom endpoints is configured, and
 * gives the cloud the cluster's control-plane instances (tagged `owned`, in the cluster's network): the
 * credentials Secret, `infrastructure/cluster .status.platformStatus.<platform>` (region, project,
 * service endpoints), and the endpoint's CA as the cluster's trusted CA (`proxy/cluster .spec.trustedCA`).
 */
export async function publishSimCloud(kc: KubeConfig, cloud: SimCloud): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api);
  const custom = kc.makeApiClient(CustomObjectsApi);
  const s = cloud.credentialsSecret();
  await core.createNamespacedSecret({
    namespace: s.namespace,
    body: { metadata: { name: s.name, namespace: s.namespace }, type: 'Opaque', stringData: s.data },
  });
  await core.createNamespacedConfigMap({
    namespace: 'openshift-config',
    body: {
      metadata: { name: SIM_CLOUD_CA_CONFIGMAP, namespace: 'openshift-config' },
      data: { 'ca-bundle.crt': cloud.caPem },
    },
  });
  const infra = obj(
    await custom.getClusterCustomObject({ ...CONFIG, plural: 'infrastructures', name: 'cluster' }),
  );
  const status = obj(infra['status']);
  const infraId = status['infrastructureName'];
  if (typeof infraId === 'string' && infraId !== '') cloud.addControlPlane(infraId);
  const platformStatus = {
    ...obj(status['platformStatus']),
    [cloud.platform.toLowerCase()]: cloud.platformStatus(),
  };
  await custom.replaceClusterCustomObjectStatus({
    ...CONFIG,
    plural: 'infrastructures',
    name: 'cluster',
    body: { ...infra, status: { ...status, platformStatus } },
  });
  const proxy = obj(await custom.getClusterCustomObject({ ...CONFIG, plural: 'proxies', name: 'cluster' }));
  await custom.replaceClusterCustomObject({
    ...CONFIG,
    plural: 'proxies',
    name: 'cluster',
    body: { ...proxy, spec: { ...obj(proxy['spec']), trustedCA: { name: SIM_CLOUD_CA_CONFIGMAP } } },
  });
}

/**
 * Writes `<kubeconfig>.cloud.json` (and the CA and any key file next to it), so other clients can be
 * pointed at the simulated cloud: `{platform, endpoint, caFile, region|zone, infraID, credentials}`.
 */
export async function writeCloudFile(
  kubeconfigOut: string,
  cloud: SimCloud,
  infraID: string,
): Promise<string> {
  const extra: [string, string][] = [];
  const caFile = `${kubeconfigOut}.cloud-ca.pem`;
  const fields = cloud.cloudFileFields({
    write: (name, content) => {
      const path = `${kubeconfigOut}.${name}`;
      extra.push([path, content]);
      return path;
    },
  });
  const file = `${kubeconfigOut}.cloud.json`;
  const body = { platform: cloud.platform, endpoint: cloud.url, caFile, ...fields, infraID };
  await writeFile(caFile, cloud.caPem, { mode: 0o600 });
  for (const [path, content] of extra) await writeFile(path, content, { mode: 0o600 });
  await writeFile(file, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
  return file;
}
