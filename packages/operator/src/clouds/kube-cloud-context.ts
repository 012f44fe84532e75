import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import type { CloudContext, CloudCredentials } from '@wmco/core/provider';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' ? (v as Obj) : {});

async function clusterObject(api: CustomObjectsApi, plural: string): Promise<Obj> {
  return obj(
    await api.getClusterCustomObject({
      group: 'config.openshift.io',
      version: 'v1',
      plural,
      name: 'cluster',
    }),
  );
}

/**
 * The platform's block of `status.platformStatus`: the field named after the platform type in lower
 * case (`aws`, `azure`, `gcp`), as the OpenShift API spells them.
 */
export function platformBlock(infrastructure: Obj): Obj {
  const status = obj(obj(infrastructure['status'])['platformStatus']);
  const type = typeof status['type'] === 'string' ? status['type'].toLowerCase() : '';
  const key = Object.keys(status).find((k) => k.toLowerCase() === type && k !== 'type');
  return key ? obj(status[key]) : {};
}

async function trustedCa(core: CoreV1Api, proxy: Obj): Promise<string | undefined> {
  const name = obj(obj(proxy['spec'])['trustedCA'])['name'];
  if (typeof name !== 'string' || name === '') return undefined;
  const cm = await core.readNamespacedConfigMap({ namespace: 'openshift-config', name });
  return cm.data?.['ca-bundle.crt'];
}

/**
 * A CloudContext read from the cluster, as the operator reads it: `infrastructure/cluster` (name and
 * platform status), the extra CAs of `proxy/cluster .spec.trustedCA` (ConfigMap in openshift-config,
 * key `ca-bundle.crt`), and Secrets read on demand, decoded, never logged. `credentials` says which
 * Secret the cloud capabilities read (unset: the minted one in the default operator namespace).
 */
export async function kubeCloudContext(
  kc: KubeConfig,
  credentials?: CloudCredentials,
): Promise<CloudContext> {
  const custom = kc.makeApiClient(CustomObjectsApi);
  const core = kc.makeApiClient(CoreV1Api);
  const infrastructure = await clusterObject(custom, 'infrastructures');
  const caBundle = await trustedCa(core, await clusterObject(custom, 'proxies'));
  const name = obj(infrastructure['status'])['infrastructureName'];
  return {
    infrastructureName: typeof name === 'string' ? name : '',
    platformStatus: platformBlock(infrastructure),
    ...(caBundle ? { caBundle } : {}),
    ...(credentials ? { credentials } : {}),
    readSecret: async (namespace, secretName) => {
      try {
        const secret = await core.readNamespacedSecret({ namespace, name: secretName });
        return Object.fromEntries(
          Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
        );
      } catch (error) {
        if ((error as { code?: unknown }).code === 404) return undefined;
        throw error;
      }
    },
  };
}
