import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { CREDENTIALS_REQUEST_NAMESPACE } from '@wmco/core/provider';
import type { SimWorld } from './sim-world.js';

function custom(world: SimWorld): CustomObjectsApi {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  return kc.makeApiClient(CustomObjectsApi);
}

/** Deletes one of the operator's CredentialsRequests as the admin. */
export async function deleteCredentialsRequest(world: SimWorld, name: string): Promise<void> {
  await custom(world).deleteNamespacedCustomObject({
    group: 'cloudcredential.openshift.io',
    version: 'v1',
    namespace: CREDENTIALS_REQUEST_NAMESPACE,
    plural: 'credentialsrequests',
    name,
  });
}

/** A CredentialsRequest of the operator's, as the admin reads it. */
export async function readCredentialsRequest(
  world: SimWorld,
  name: string,
): Promise<Record<string, unknown>> {
  return (await custom(world).getNamespacedCustomObject({
    group: 'cloudcredential.openshift.io',
    version: 'v1',
    namespace: CREDENTIALS_REQUEST_NAMESPACE,
    plural: 'credentialsrequests',
    name,
  })) as Record<string, unknown>;
}
