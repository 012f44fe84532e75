import { CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { DEFAULT_VXLAN_PORT } from '@wmco/core';
import { isNotFound } from '@wmco/core/internal';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' ? (v as Obj) : {});

/** What `wmco preflight --kubeconfig` reads from the cluster instead of taking it from flags. */
export interface PreflightCluster {
  /** `infrastructure/cluster` `status.platformStatus.type` (or the older `status.platform`). */
  readonly platform: string;
  readonly infrastructureName: string;
  /** The hybrid overlay VXLAN port of `network.operator.openshift.io/cluster` (4789 when it sets none). */
  readonly vxlanPort: number;
}

async function clusterObject(api: CustomObjectsApi, group: string, plural: string): Promise<Obj> {
  return obj(await api.getClusterCustomObject({ group, version: 'v1', plural, name: 'cluster' }));
}

/** The network operator's VXLAN port; a cluster without its config uses the default, as OVN does. */
async function vxlanPortOf(api: CustomObjectsApi): Promise<number> {
  let network: Obj;
  try {
    network = await clusterObject(api, 'operator.openshift.io', 'networks');
  } catch (err) {
    if (isNotFound(err)) return DEFAULT_VXLAN_PORT;
    throw err;
  }
  const ovn = obj(obj(obj(network['spec'])['defaultNetwork'])['ovnKubernetesConfig']);
  const port = obj(ovn['hybridOverlayConfig'])['hybridOverlayVXLANPort'];
  return typeof port === 'number' ? port : DEFAULT_VXLAN_PORT;
}

/** Reads the platform, infrastructure name and VXLAN port the operator would use on this cluster. */
export async function readPreflightCluster(kc: KubeConfig): Promise<PreflightCluster> {
  const api = kc.makeApiClient(CustomObjectsApi);
  const status = obj((await clusterObject(api, 'config.openshift.io', 'infrastructures'))['status']);
  const type = obj(status['platformStatus'])['type'] ?? status['platform'];
  const name = status['infrastructureName'];
  if (typeof type !== 'string' || type === '')
    throw new Error(
      'infrastructure/cluster has no status.platformStatus.type: is this an OpenShift cluster?',
    );
  return {
    platform: type,
    infrastructureName: typeof name === 'string' ? name : '',
    vxlanPort: await vxlanPortOf(api),
  };
}
