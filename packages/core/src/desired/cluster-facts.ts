import type { CaBundleInput } from './ca-bundle.js';
import type { MirrorProblem } from './mirror-entry-check.js';
import type { ImageMirrorEntry } from './mirror-sets.js';

/** `network.config.openshift.io/cluster` and `network.operator.openshift.io/cluster`, as far as read. */
export interface ClusterNetworkFacts {
  readonly networkType?: string;
  readonly serviceNetwork?: readonly string[];
  readonly clusterNetwork?: readonly { readonly cidr: string }[];
  readonly ovnKubernetesConfig?: {
    readonly hybridOverlayConfig?: {
      readonly hybridClusterNetwork?: readonly { readonly cidr?: string; readonly hostPrefix?: number }[];
      readonly hybridOverlayVXLANPort?: number;
    };
  };
}

/** The serving certificate and key of windows_exporter, PEM. */
export interface ExporterTls {
  readonly cert: string;
  readonly key: string;
}

/** The ServiceAccount token and the API server CA the cloud node manager's kubeconfig is made from. */
export interface CloudNodeManagerToken {
  readonly caCrt: string;
  readonly token: string;
}

/**
 * What the operator reads from the cluster to describe a Windows node: plain values, read once per
 * reconcile by `readClusterFacts`, so everything downstream stays a pure function of them.
 */
export interface ClusterFacts {
  /** `infrastructure/cluster .status.platformStatus.type`. */
  readonly platform: string;
  readonly infrastructureName: string;
  /** `infrastructure/cluster .status.apiServerInternalURI`. */
  readonly apiServerInternalUrl: string;
  readonly network: ClusterNetworkFacts;
  /** First service network CIDR. */
  readonly serviceCidr: string;
  /** Custom hybrid-overlay VXLAN port, or '' for the default. */
  readonly vxlanPort: string;
  /** PEM bundle kubelets trust for API server clients (ControllerConfig kubeAPIServerServingCAData). */
  readonly kubeletCaPem: string;
  /** `openshift-machine-config-operator/node-bootstrapper-token`: the API CA and a bootstrap token. */
  readonly bootstrap: { readonly caCrt: string; readonly token: string };
  /** `openshift-config/pull-secret` `.dockerconfigjson`, when present. */
  readonly pullSecret?: string;
  readonly digestMirrors: readonly ImageMirrorEntry[];
  readonly tagMirrors: readonly ImageMirrorEntry[];
  /** IDMS/ITMS entries that were skipped (each is reported once as an event). */
  readonly mirrorProblems?: readonly MirrorProblem[];
  /**
   * The cluster-wide proxy variables from `proxies.config.openshift.io/cluster` status (`{}`: none set);
   * absent when the cluster has no Proxy object.
   */
  readonly proxy?: Readonly<Record<string, string>>;
  /**
   * What `C:\k\ca-bundle.crt` is built from (reference §1.10): ControllerConfig's registry bundles and,
   * when the cluster has a proxy, the `trusted-ca` ConfigMap's bundle. Absent: facts read without it.
   */
  readonly caBundle?: CaBundleInput;
  /**
   * windows_exporter's serving certificate and key (Secret `windows-machine-config-operator-tls`, filled by
   * the service CA). Absent: facts read without the namespace, or the Secret is missing or not filled yet.
   */
  readonly exporterTls?: ExporterTls;
  /**
   * The `windows-cloud-node-manager` ServiceAccount's token and CA (Secret
   * `windows-cloud-node-manager-token`), which the platform's cloud node manager runs with. Absent: facts
   * read without the namespace, or the Secret is missing or not filled yet.
   */
  readonly cloudNodeManagerToken?: CloudNodeManagerToken;
  /** `--cloud-provider` of the Linux workers' kubelet, when they set one. */
  readonly cloudProvider?: string;
  /** `--cloud-config` of the Linux workers' kubelet (a path in their ignition), when they set one. */
  readonly cloudConfig?: string;
  /**
   * Files of the Linux workers' ignition a Windows node may copy, decoded, by path: the cloud config and
   * the kubelet credential provider configs (`/etc/kubernetes/credential-providers/`).
   */
  readonly workerFiles?: Readonly<Record<string, string>>;
  /** Those worker files that could not be decoded, with the reason (they fail only the nodes needing them). */
  readonly workerFileErrors?: Readonly<Record<string, string>>;
}
