// @wmco/core/internal: what @wmco/operator and @wmco/sim use beyond the public entries (the controllers and
// their wiring, cluster facts, node metadata names, the host protocol and capture scripts). NOT a public
// API: no semver promise, no API report, and it may change in any release. Embedders and providers use
// '@wmco/core', '@wmco/core/provider' and '@wmco/core/testing' only.
export {
  ByohControllers,
  type ByohControllersOptions,
  ClusterAddresses,
  byohJoiningInstance,
  byohSourceInstance,
  planByohInstance,
  NODE_TAKEN_OVER,
  NODE_TAKEOVER_REFUSED,
  type ByohAction,
  type ByohPlan,
} from './sources/byoh/index.js';
export { machineJoiningInstance, machineSourceInstance } from './sources/machines/index.js';
export {
  CloudJoin,
  type CloudJoinOptions,
  ConfigMapStatusStore,
  type HostTarget,
  type InstanceCondition,
  type InstancePhase,
  type InstanceStatus,
  type InstanceStatusStore,
  type JoinDeps,
  type JoinFlowDeps,
  type DriftRepairDeps,
  type MaintenanceDeps,
  type UpgradeFlowDeps,
  type JoinTimings,
  isNodeReady,
  nodeInternalIp,
  planNode,
} from './lifecycle/index.js';
export {
  ConfigMapHostKeyStore,
  InformedClusterFacts,
  InformedHostKeyStore,
  moveLegacyHostKeys,
} from './controllers/index.js';
export { type NodeDesign } from './desired/index.js';
export { kubernetesVersionProblem, networkProblems } from './cluster/index.js';
export { observeQueryFor } from './converge/index.js';
export {
  HYBRID_OVERLAY_NETWORK,
  type ImageMirrorEntry,
  NODE_IP_SCRIPT,
  type RegistryCredentials,
  SERVICES_CONFIGMAP_PREFIX,
  STRICT_ADDRESS_POLICY,
  ServicesPlanner,
  WATCHED_ENVIRONMENT_VARS,
  bootstrapKubeconfig,
  cniConfiguration,
  hostsTomlFiles,
  kubeProxyConfiguration,
  mergedMirrorSets,
  networkConfigScript,
  parseLogRotation,
  parsePullSecret,
  parseSha256Sums,
  proxyEnvironment,
  systemIpv4Resolver,
  withoutProxyCredentials,
} from './desired/index.js';
export {
  CAPTURE_DONE_PREFIX,
  CAPTURE_HASH_MISMATCH,
  CAPTURE_LINE_PREFIX,
  type CaptureItem,
  type CaptureRecord,
  type ChangeResult,
  CLIENT_CERTIFICATE_NAME,
  EVALUATE_OUTPUT_MAX,
  type Evaluated,
  type GateReport,
  type GateScript,
  HOST_MODULE_FILE,
  HOST_PROTOCOL_VERSION,
  HostPaths,
  type HostRequest,
  type HostResult,
  MODULE_HASH_MISMATCH,
  SESSION_FOLDER_REFUSED_MARKER,
  SESSION_MODULE_MISSING_MARKER,
  SESSION_READY_MARKER,
  SESSION_RESULT_PREFIX,
  decodePowerShellCommand,
  encodePowerShellCommand,
  findPwsh,
  formatFindings,
  hostInvocationScript,
  hostRequestSchema,
  hostSessionScript,
  isPrunablePath,
  loadHostCaptureScript,
  loadHostModule,
  parseCaptureOutput,
  parseHostCaptureInvocation,
  parseHostInstallInvocation,
  parseHostInvocation,
  parseHostSession,
  readableStderr,
  runPs51Gate,
  sharedTransfers,
  stagedArchivePathFor,
  stagedPathFor,
} from './host/index.js';
export { addressGuardedOpener, AddressRefusedError, recordDisagreements } from './lifecycle/index.js';
export {
  type HostcheckPorts,
  type HostcheckResult,
  REAL_HOSTCHECK_PORTS,
  runHostcheck,
} from './preflight/index.js';
export {
  type BootstrapIdentity,
  DEFAULT_REGISTRATION_TTL_MS,
  Registrations,
  bootstrapRequesterProblem,
  bootstrapTokenIdentity,
  describeBootstrapIdentity,
  joinedByOperator,
  openShiftBootstrapIdentity,
} from './identity/index.js';
export {
  Annotations,
  HOST_KEYS_CONFIGMAP,
  PENDING_HOST_KEYS_CONFIGMAP,
  RecordedHostKeys,
  recordCovers,
  Labels,
  PRIVATE_KEY_FIELD,
  STATUS_CONFIGMAP,
  decryptUsername,
  decryptUpstreamUsername,
  encryptUpstreamUsername,
  InformedNodeRecords,
  decodeNodeRecord,
  NODE_RECORD_LABEL,
  NODE_RECORD_FIELD,
  nodeRecordName,
  type NodeRecord,
} from './identity/index.js';
export {
  CaBundleProblemReporter,
  type ClusterFacts,
  EXPORTER_TLS_FILES,
  ExporterTlsProblemReporter,
  MirrorProblemReporter,
  readClusterFacts,
} from './cluster/index.js';
export { generatedFiles, kubeletCloudFiles, publicKeyOf } from './desired/index.js';
export { type WatchPort, describeApiError, httpStatus, isNotFound, kubeWatch } from './kube/index.js';
export {
  KubeOperatorCondition,
  LIFECYCLE_BOOT_ANNOTATION,
  LIFECYCLE_PHASE_ANNOTATION,
  type LifecycleOptions,
  NodeMaintenance,
  REBOOT_REQUESTED_ANNOTATION,
  REBOOT_REQUIRED_ANNOTATION,
  parseMaxUnavailable,
  resolveMaxUnavailable,
  rebootRequested,
} from './lifecycle/index.js';
export { ServiceMonitorController, windowsExporterServiceMonitor } from './monitoring/index.js';
export { checkCloud } from './preflight/index.js';
export {
  MACHINE_API_NAMESPACE,
  type MachineAction,
  MachineControllers,
  type MachineResource,
  WINDOWS_MACHINE_SELECTOR,
  nodeOfMachine,
  planMachine,
  windowsMachine,
} from './sources/machines/index.js';
export { forgetHostPins, isPinOf, type HostPinRemover } from './host/index.js';
export { proxyCredentials } from './desired/index.js';
export { SupervisedInformer } from './kube/index.js';
export { platformParts, type PlatformParts } from './compose/platform-parts.js';
export { reportRefusedStart } from './compose/operator-status.js';
export {
  OPERATOR_STATUS_KEY,
  type OperatorCondition,
  type OperatorConditionType,
  type OperatorStatus,
} from './lifecycle/index.js';
