import { CoreV1Api, type KubeConfig, type V1ObjectMeta } from '@kubernetes/client-node';
import { OPERATOR_NAMESPACE } from '@wmco/sim';
import type { CreatedSink } from './attach-objects.js';
import { ATTACH_LABEL } from './attach-pins.js';

const KEY_SECRET = 'cloud-private-key';
const INSTANCES = 'windows-instances';

async function labels(
  read: () => Promise<{ metadata?: V1ObjectMeta }>,
): Promise<Record<string, string> | undefined> {
  try {
    return (await read()).metadata?.labels ?? {};
  } catch (e) {
    if ((e as { code?: unknown }).code === 404) return undefined;
    throw e;
  }
}

/**
 * Refuses a cluster whose SSH key Secret or windows-instances ConfigMap exists without ATTACH_LABEL
 * (a cluster's own Windows instances): attach mode never replaces them.
 */
export async function checkInstancesAreOurs(kc: KubeConfig): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api);
  const namespace = OPERATOR_NAMESPACE;
  const found = [
    [KEY_SECRET, await labels(() => core.readNamespacedSecret({ name: KEY_SECRET, namespace }))],
    [INSTANCES, await labels(() => core.readNamespacedConfigMap({ name: INSTANCES, namespace }))],
  ] as const;
  for (const [name, l] of found) {
    if (l !== undefined && l[ATTACH_LABEL] !== 'true')
      throw new Error(
        `${namespace}/${name} exists and is not attach mode's (no label ${ATTACH_LABEL}); ` +
          "attach mode does not replace a cluster's own Windows instances or SSH key: delete it first, or use another cluster",
      );
  }
}

/**
 * The SSH key Secret and the windows-instances ConfigMap, as the cluster admin puts them, labelled as
 * attach mode's (an earlier run's are replaced; checkInstancesAreOurs ran first).
 */
export async function writeInstances(
  kc: KubeConfig,
  privateKey: string,
  entries: Record<string, string>,
  onCreated?: CreatedSink,
): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api);
  const namespace = OPERATOR_NAMESPACE;
  await checkInstancesAreOurs(kc);
  const metadata = (name: string): V1ObjectMeta => ({ name, namespace, labels: { [ATTACH_LABEL]: 'true' } });
  const gone = (e: unknown): void => {
    if ((e as { code?: unknown }).code !== 404) throw e;
  };
  await core.deleteNamespacedSecret({ name: KEY_SECRET, namespace }).catch(gone);
  await core.createNamespacedSecret({
    namespace,
    body: {
      metadata: metadata(KEY_SECRET),
      data: { 'private-key.pem': Buffer.from(privateKey).toString('base64') },
    },
  });
  onCreated?.({ apiVersion: 'v1', kind: 'Secret', namespace, name: KEY_SECRET });
  await core.deleteNamespacedConfigMap({ name: INSTANCES, namespace }).catch(gone);
  await core.createNamespacedConfigMap({ namespace, body: { metadata: metadata(INSTANCES), data: entries } });
  onCreated?.({ apiVersion: 'v1', kind: 'ConfigMap', namespace, name: INSTANCES });
}
