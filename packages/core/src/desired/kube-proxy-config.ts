/** What the host fills into kube-proxy's configuration (reference §1.17). */
export interface KubeProxyConfigInput {
  /** The node name. */
  readonly hostnameOverride: string;
  /** The node's hybrid-overlay subnet (annotation `k8s.ovn.org/hybrid-overlay-node-subnet`). */
  readonly clusterCIDR: string;
  /** IPv4 of the host adapter of the HNS `VIPEndpoint`. */
  readonly sourceVip: string;
  readonly kubeconfig: string;
  readonly verbosity: number;
  /** HNS network kube-proxy programs (upstream `OVNKubernetesHybridOverlayNetwork`). */
  readonly networkName?: string;
}

export const HYBRID_OVERLAY_NETWORK = 'OVNKubernetesHybridOverlayNetwork';

/**
 * `C:\k\kube-proxy.conf`: KubeProxyConfiguration for the Windows kernel proxier with Direct Server Return
 * on (OCPBUGS-26761: packet loss on Windows Server 2019 without it), as JSON (a subset of YAML, which
 * kube-proxy reads).
 */
export function kubeProxyConfiguration(input: KubeProxyConfigInput): string {
  return JSON.stringify(
    {
      kind: 'KubeProxyConfiguration',
      apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
      featureGates: { WinDSR: true, WinOverlay: true },
      clientConnection: { kubeconfig: input.kubeconfig },
      hostnameOverride: input.hostnameOverride,
      clusterCIDR: input.clusterCIDR,
      mode: 'kernelspace',
      winkernel: {
        networkName: input.networkName ?? HYBRID_OVERLAY_NETWORK,
        sourceVip: input.sourceVip,
        enableDSR: true,
      },
      logging: { verbosity: input.verbosity },
    },
    undefined,
    2,
  );
}
