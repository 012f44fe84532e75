// The desired-state builders: pure functions of plain values (ARCHITECTURE §3).
export { parseAuthorizedKey, publicKeyHash, type AuthorizedKey } from './authorized-key.js';
export { buildUserData } from './user-data.js';
export { findNodeByAddress, type NodeAddress, type NodeRef } from './node-ref.js';
export * from './windows-instances.js';
export * from './instance-address.js';
export { systemIpv4Resolver } from './system-ipv4-resolver.js';
export * from './log-rotation.js';
export { coreServices, NODE_IP_SCRIPT, type CoreServiceOptions } from './core-services.js';
export * from './windows-services.js';
export { ServicesPlanner } from './services-planner.js';
export * from './services-list-rules.js';
export * from './services-configmap.js';
export { validateExpectedContent } from './services-content.js';
export { evaluateNodeJsonPath } from './node-jsonpath.js';
export * from './service-variables.js';
export { clusterDnsAddress } from './cluster-dns.js';
export { kubeletConfiguration } from './kubelet-config.js';
export { bootstrapKubeconfig, type BootstrapSecretData } from './bootstrap-kubeconfig.js';
export * from './kube-proxy-config.js';
export * from './cni-config.js';
export * from './network-script.js';
export * from './containerd-config.js';
export { credentialProviderConfigFile } from './credential-provider-config.js';
export * from './proxy-env.js';
export * from './proxy-credentials.js';
export * from './ca-bundle.js';
export { parseSha256Sums } from './sha256sum-file.js';
export * from './payload-manifest.js';
export * from './mirror-sets.js';
export * from './mirror-entry-check.js';
export * from './pull-secret.js';
export * from './hosts-toml.js';
export { logFileSizeMB } from './log-file-size.js';
export {
  designNode,
  designContent,
  hostSpecWith,
  nodeHostSpec,
  nodeScripts,
  variableScripts,
  type NodeDesign,
  type NodeDesignDeps,
} from './node-spec.js';
export { generatedFiles, type GeneratedFile } from './generated-files.js';
export { kubeletCloudFiles, type KubeletCloudFiles } from './kubelet-cloud-files.js';
export { buildHostSpec, REQUIRED_DIRECTORIES } from './host-spec-builder.js';
export { scriptsFor, resolveServices, type HostScript } from './service-scripts.js';
export {
  managedDescription,
  type HostSpec,
  type HostSpecFile,
  type FirewallRuleSpec,
  type ServiceScript,
  type RootCertificatesSpec,
} from './host-spec.js';
export { publicKeyOf } from './public-key.js';
