export type { ClusterFacts } from './cluster-facts.js';
export { readClusterFacts, ClusterFactsError } from './read-cluster-facts.js';
export { generatedFiles, type GeneratedFile } from './generated-files.js';
export { kubeletCloudFiles, type KubeletCloudFiles } from './kubelet-cloud-files.js';
export { buildHostSpec, REQUIRED_DIRECTORIES } from './host-spec-builder.js';
export * from './node-metadata.js';
export { encryptUsername, decryptUsername } from './username-crypto.js';
export { publicKeyOf } from './public-key.js';
export { scriptsFor, resolveServices, type HostScript } from './service-scripts.js';
export { MirrorProblemReporter } from './mirror-problem-reporter.js';
export { CaBundleProblemReporter } from './ca-bundle-problem-reporter.js';
export { ExporterTlsProblemReporter } from './exporter-tls-problem-reporter.js';
export {
  EXPORTER_SERVICE,
  EXPORTER_TLS_FILES,
  EXPORTER_TLS_SECRET,
  readExporterTls,
  type ExporterTls,
} from './read-exporter-tls.js';
