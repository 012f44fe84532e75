import type { CoreV1Api } from '@kubernetes/client-node';

// Objects a cluster already has before an attach-mode run, for the tests that check the run keeps them.

/** A namespace and one ConfigMap in it. */
export async function createNamespacedConfigMap(
  core: CoreV1Api,
  namespace: string,
  name: string,
  data: Record<string, string>,
): Promise<void> {
  await core.createNamespace({ body: { metadata: { name: namespace } } });
  await core.createNamespacedConfigMap({ namespace, body: { metadata: { name }, data } });
}

/** The openshift-config namespace and its pull-secret (a kubernetes.io/dockerconfigjson Secret). */
export async function createPullSecret(core: CoreV1Api, data: Record<string, string>): Promise<void> {
  await core.createNamespace({ body: { metadata: { name: 'openshift-config' } } });
  await core.createNamespacedSecret({
    namespace: 'openshift-config',
    body: { metadata: { name: 'pull-secret' }, type: 'kubernetes.io/dockerconfigjson', data },
  });
}
