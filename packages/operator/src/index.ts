export { buildProgram } from './cli/program.js';
export type { CliContext } from './cli/cli-context.js';
export {
  BUILTIN_PROVIDER_IDS,
  BUILTIN_PROVIDER_PACKAGES,
  type BuiltinProviderId,
} from './providers/builtin-providers.js';
export {
  loadBakedProviders,
  loadBuiltinProviders,
  parseBakedProviders,
} from './providers/baked-providers.js';
export { loadProviderPackage, loadProviders } from './providers/load-provider-package.js';
export { WMCO_VERSION } from './cli/version-command.js';
export { requestReboot } from './cli/reboot-command.js';
export { REAL_PREFLIGHT_PORTS, preflightCommand } from './cli/preflight-command.js';
export type { RunSim, SimOptions } from './cli/sim-command.js';
export { kubeCloudContext } from './clouds/kube-cloud-context.js';
export { ROOT_CREDENTIALS, staticCloudContext } from './clouds/static-cloud-context.js';
export { bootstrapIdentity } from './runtime/bootstrap-identity.js';
export { defaultParallelJoins, machineResources } from './runtime/join-concurrency.js';
export { PooledKubeConfig } from './runtime/load-kubeconfig.js';
export { createLogger } from './runtime/logger.js';
export { kubeMetricsAccess, type MetricsAccess } from './runtime/metrics-access.js';
export { CachedMetricsAccess, DEFAULT_METRICS_ACCESS_LIMITS } from './runtime/cached-metrics-access.js';
export { OperatorMetrics } from './runtime/metrics.js';
export { MeteredStatusStore } from './runtime/metered-status-store.js';
export { OPERATOR_MALLOC_ENV, OPERATOR_NODE_FLAGS } from './runtime/node-flags.js';
export { LEADER_LEASE_NAME } from './runtime/operator-elector.js';
export { OperatorRuntime, StartupError } from './runtime/operator-runtime.js';
export { Redactor } from './runtime/redactor.js';
export type { RuntimeHooks } from './runtime/runtime-hooks.js';
export { SecureMetricsServer } from './runtime/secure-metrics.js';
export { clusterTlsProfile } from './runtime/cluster-tls-profile.js';
export { tlsProfileOptions, TLS_PROFILES, type TlsProfileOptions } from './runtime/tls-profile.js';
export type { HostLimits } from './runtime/host-limits-config.js';
