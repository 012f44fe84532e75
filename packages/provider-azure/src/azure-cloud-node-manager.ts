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
 * Decision (differs from upstream on purpose): upstream passes the WICD kubeconfig
 * (`C:\k\wicd-kubeconfig`, OCPBUGS-36671). wmco-ts has no WICD, so the service uses the node's own
 * kubeconfig (`C:\k\kubeconfig`, written by the kubelet after TLS bootstrap), whose identity
 * `system:node:<name>` may update its own Node. The command is otherwise upstream's, and it has no debug
 * variant upstream either, so `context.debug` changes nothing.
 */
export const azureCloudNodeManager: CloudNodeManager = {
  service: (): WindowsServiceSpec => ({
    name: 'cloud-node-manager',
    command:
      `${WindowsPaths.k8sDir}\\${BINARY} --windows-service --node-name=NODE_NAME --wait-routes=false ` +
      `--kubeconfig=${WindowsPaths.kubeconfig}`,
    bootstrap: false,
    priority: 3,
    nodeVariables: [{ name: 'NODE_NAME', jsonPath: '{.metadata.name}' }],
  }),
  payload: (): readonly PayloadFile[] => [{ name: BINARY, directory: WindowsPaths.k8sDir }],
};
