import {
  WindowsPaths,
  type CloudNodeManager,
  type PayloadFile,
  type WindowsServiceSpec,
} from '@wmco/core/provider';

const BINARY = 'azure-cloud-node-manager.exe';

/**
 * The Azure cloud node manager, run as the `cloud-node-manager` Windows service once the Node exists
 * (OCPBUGS-5002). It sets the Node's provider ID, addresses and zone labels from Azure's metadata.
 *
 * Its kubeconfig follows upstream's fix for OCPBUGS-36671: not the node's own (`C:\k\kubeconfig`, identity
 * `system:node:<name>`), because NodeRestriction refuses a node that changes its Node's taints, and the
 * cloud node manager must remove `node.cloudprovider.kubernetes.io/uninitialized` and set the fields the
 * cloud provider owns. Upstream passes the WICD kubeconfig; wmco-ts has no WICD, so the core writes
 * `C:\k\cloud-node-manager-kubeconfig` with the token of a ServiceAccount of its own,
 * `windows-cloud-node-manager` (deploy/1*-cloud-node-manager-*.yaml: nodes get, list, watch, update, patch
 * and nodes/status patch, as cloud-provider-azure's own cloud-node-manager ClusterRole). The command is
 * otherwise upstream's, and it has no debug variant upstream either, so `context.debug` changes nothing.
 */
export const azureCloudNodeManager: CloudNodeManager = {
  service: (): WindowsServiceSpec => ({
    name: 'cloud-node-manager',
    command:
      `${WindowsPaths.k8sDir}\\${BINARY} --windows-service --node-name=NODE_NAME --wait-routes=false ` +
      `--kubeconfig=${WindowsPaths.cloudNodeManagerKubeconfig}`,
    bootstrap: false,
    priority: 3,
    nodeVariables: [{ name: 'NODE_NAME', jsonPath: '{.metadata.name}' }],
  }),
  payload: (): readonly PayloadFile[] => [{ name: BINARY, directory: WindowsPaths.k8sDir }],
};
