import type { CoreV1Api } from '@kubernetes/client-node';
import { isNotFound } from '../kube/client/api-errors.js';

import { CLOUD_NODE_MANAGER_TOKEN_SECRET } from '../desired/cloud-node-manager-kubeconfig.js';
import type { CloudNodeManagerToken } from '../desired/cluster-facts.js';

/**
 * The cloud node manager of every Windows node of a platform that has one runs with the token of the
 * `windows-cloud-node-manager` ServiceAccount (OCPBUGS-36671), never with the node's own identity, which
 * NodeRestriction forbids to change the Node's taints.
 */
export { CLOUD_NODE_MANAGER_TOKEN_SECRET };

/** The filled Secret's `ca.crt` and `token`; undefined while it is missing or not filled yet. */
export async function readCloudNodeManagerToken(
  core: CoreV1Api,
  namespace: string,
): Promise<CloudNodeManagerToken | undefined> {
  try {
    const secret = await core.readNamespacedSecret({ name: CLOUD_NODE_MANAGER_TOKEN_SECRET, namespace });
    const data = secret.data ?? {};
    const [caCrt, token] = [data['ca.crt'], data['token']].map((v) =>
      Buffer.from(v ?? '', 'base64').toString('utf8'),
    );
    return caCrt && token ? { caCrt, token } : undefined;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
