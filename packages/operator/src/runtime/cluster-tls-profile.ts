import { CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { isNotFound } from '@wmco/core/internal';

/**
 * Reads `spec.tlsSecurityProfile` of `apiservers.config.openshift.io/cluster`, the profile OpenShift's
 * control plane serves with; undefined where the cluster has no such object (not OpenShift) or no profile
 * (OpenShift's default, Intermediate). Needs `get` on apiservers.config.openshift.io.
 */
export function clusterTlsProfile(kc: KubeConfig): () => Promise<unknown> {
  const api = kc.makeApiClient(CustomObjectsApi);
  return async () => {
    try {
      const o = (await api.getClusterCustomObject({
        group: 'config.openshift.io',
        version: 'v1',
        plural: 'apiservers',
        name: 'cluster',
      })) as { spec?: { tlsSecurityProfile?: unknown } };
      return o.spec?.tlsSecurityProfile;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  };
}
