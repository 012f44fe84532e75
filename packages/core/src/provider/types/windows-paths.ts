/** Well-known locations on a Windows node (reference §3.6). Providers refer to these, never to literals. */
export const WindowsPaths = {
  /** Scripts and modules run by the operator. */
  remoteDir: 'C:\\Temp',
  k8sDir: 'C:\\k',
  kubeconfig: 'C:\\k\\kubeconfig',
  bootstrapKubeconfig: 'C:\\k\\bootstrap-kubeconfig',
  /** The cloud node manager's own ServiceAccount kubeconfig, written by the core (OCPBUGS-36671). */
  cloudNodeManagerKubeconfig: 'C:\\k\\cloud-node-manager-kubeconfig',
  kubeletConfig: 'C:\\k\\kubelet.conf',
  credentialProviderConfig: 'C:\\k\\credential-provider-config.yaml',
  logDir: 'C:\\var\\log',
} as const;
