export * from './cluster-validation.js';
export type { ClusterFacts, ClusterNetworkFacts, ExporterTls } from '../desired/cluster-facts.js';
export { readClusterFacts, ClusterFactsError } from './read-cluster-facts.js';
export { MirrorProblemReporter } from './mirror-problem-reporter.js';
export { CaBundleProblemReporter } from './ca-bundle-problem-reporter.js';
export { ExporterTlsProblemReporter } from './exporter-tls-problem-reporter.js';
export {
  EXPORTER_SERVICE,
  EXPORTER_TLS_FILES,
  EXPORTER_TLS_SECRET,
  readExporterTls,
} from './read-exporter-tls.js';
