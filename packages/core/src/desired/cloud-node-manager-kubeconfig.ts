import type { ClusterFacts } from './cluster-facts.js';
import type { HostFile } from '../provider/types/payload-file.js';
import { WindowsPaths } from '../provider/types/windows-paths.js';
import { bootstrapKubeconfig } from './bootstrap-kubeconfig.js';

/**
 * The token Secret of the `windows-cloud-node-manager` ServiceAccount in the operator's namespace (the
 * install brings it; the cluster's token controller fills `token` and `ca.crt`).
 */
export const CLOUD_NODE_MANAGER_TOKEN_SECRET = 'windows-cloud-node-manager-token';

/** The user name in the cloud node manager's kubeconfig. */
const USER = 'cloud-node-manager';

/**
 * `C:\k\cloud-node-manager-kubeconfig`, for platforms with a cloud node manager (Azure): the
 * `windows-cloud-node-manager` ServiceAccount's token and the API server CA, at the internal API URL.
 * Upstream gives its cloud node manager the WICD kubeconfig (OCPBUGS-36671) because the node's own
 * identity may not do its job: NodeRestriction refuses a node that changes its Node's taints, and the
 * cloud node manager removes `node.cloudprovider.kubernetes.io/uninitialized`. wmco-ts has no WICD, so
 * the cloud node manager gets a ServiceAccount of its own, granted only what it calls (nodes get, list,
 * watch, update, patch; nodes/status patch). Throws, naming the Secret, while that Secret is not filled.
 */
export function cloudNodeManagerFiles(facts: ClusterFacts, hasCloudNodeManager: boolean): HostFile[] {
  if (!hasCloudNodeManager) return [];
  const t = facts.cloudNodeManagerToken;
  if (t === undefined)
    throw new Error(
      `the cloud node manager's token is missing: Secret ${CLOUD_NODE_MANAGER_TOKEN_SECRET} in the operator's namespace does not exist or has no token yet (the install brings it: the windows-cloud-node-manager objects of deploy/, the Helm chart or the bundle)`,
    );
  const content = bootstrapKubeconfig(
    { 'ca.crt': Buffer.from(t.caCrt), token: Buffer.from(t.token) },
    facts.apiServerInternalUrl,
    USER,
  );
  return [{ path: WindowsPaths.cloudNodeManagerKubeconfig, content }];
}
