// @wmco/core: the public entry for embedders: createWmcoCore, the host access layer, the desired-state
// builders and plan/converge, pre-flight and the Kubernetes runtime pieces a controller process needs.
// Every name here is listed in packages/core/api/core.api.md (`pnpm api:update` after a change); the
// provider contract is '@wmco/core/provider', the contract suite '@wmco/core/testing'. What the operator
// and the simulated world need beyond this lives in './internal.ts' ('@wmco/core/internal', no semver).

// composition
export { type WmcoCore, type WmcoCoreOptions, createWmcoCore } from './compose/create-wmco-core.js';
export { DEFAULT_DRIFT_REPAIR_INTERVAL_MS, type WmcoControllers } from './compose/wmco-controllers.js';
export type {
  SecretScrubber,
  WmcoControllersOptions,
  WmcoMetricsHooks,
  WmcoTestHooks,
} from './compose/wmco-controllers-options.js';
export { type Runnable } from './compose/runnable.js';
export type { HostSource, InstanceList, InstanceReport } from './sources/byoh/instance-list.js';
export type { InstancePhase } from './lifecycle/instance-status.js';
export type { JoinTimings } from './lifecycle/join-deps.js';
export { DEFAULT_EVENT_COMPONENT } from './compose/controller-deps.js';
export { selectProvider } from './core/select-provider.js';
export { ActivePlatform } from './core/active-platform.js';
export { newRootContainer } from './di.js';

// contract types the composition's signatures use
export {
  type CapabilityResolver,
  type CloudContext,
  type CloudNodeManager,
  type Constructor,
  type HostFile,
  type HostnameOverride,
  type ImageCredentialProvider,
  type NodeVariable,
  type PayloadFile,
  type PlatformPrerequisites,
  type PlatformType,
  type PowerShellPreScript,
  type ProviderRegistrar,
  type ServiceContext,
  type Token,
  type UserDataFormat,
  type WindowsBuild,
  type WindowsServiceSpec,
  WmcoError,
  type WmcoProvider,
} from './provider/index.js';
export { type DependencyContainer } from './di.js';

// host access
export {
  type ApplyOptions,
  AuthenticationError,
  type ChangeOutcome,
  type DeconfigureOptions,
  type DeconfigureRequest,
  type EvaluateEntry,
  type FirewallPort,
  type HnsNetwork,
  type HostAction,
  HostCommandTimeoutError,
  HostKeyMismatchError,
  type HostKeyStore,
  type HostLogger,
  HostOperationError,
  HostOutputLimitError,
  HostProtocolError,
  HostRequestTimeoutError,
  type HostState,
  HostUnreachableError,
  HostFolderRefusedError,
  HostWorkAbandonedError,
  InMemoryHostKeyStore,
  InvalidHostRequestError,
  type LocalUploadSource,
  NamePinnedHostKeyStore,
  type ObserveQuery,
  type ObserveRequest,
  type PinnedHostKey,
  ReadOnlyHostKeyStore,
  type RouteState,
  type ServiceRunState,
  type ServiceStartType,
  type SshHostOptions,
  type SshHostStats,
  SshWindowsHost,
  type UploadFile,
  type UploadReport,
  type WindowsHost,
} from './host/index.js';

// desired state and convergence
export {
  type ConvergeOptions,
  type ConvergeResult,
  type Plan,
  converge,
  describePlan,
  describeStep,
  plan,
} from './converge/index.js';
export {
  type FirewallRuleSpec,
  type HostSpec,
  type HostSpecFile,
  type ServiceScript,
  type RootCertificatesSpec,
} from './desired/index.js';
export { type PlanStep } from './host/index.js';
export {
  type AuthorizedKey,
  CORE_PAYLOAD,
  type InstanceAddressPolicy,
  type Ipv4Resolver,
  type LogRotation,
  type NodeAddress,
  type NodeRef,
  type PayloadEntry,
  type ServiceCapabilities,
  type ServicesData,
  type ServicesFile,
  type ServicesOptions,
  type WindowsInstance,
  type WindowsInstanceResult,
  buildUserData,
  buildWindowsServices,
  kubeletConfiguration,
  parseAuthorizedKey,
  parseServicesData,
  parseWindowsInstances,
  publicKeyHash,
  readPayloadManifest,
  servicesConfigMap,
} from './desired/index.js';
export { type PersistentRoute } from './provider/index.js';

// preflight
export {
  CLOUD_PREFLIGHT_CHECKS,
  DEFAULT_VXLAN_PORT,
  type Finding,
  type FindingStatus,
  type HostCheckOptions,
  PREFLIGHT_CHECKS,
  type PreflightCheck,
  type PreflightInput,
  type PreflightPorts,
  type PreflightReport,
  type TcpProbe,
  runPreflight,
  tcpProbe,
} from './preflight/index.js';

// kube runtime
export {
  type Clock,
  type ControllerMetrics,
  DEFAULT_LEADER_ELECTION,
  type EventRecorder,
  type EventType,
  KubeEventRecorder,
  type KubeEventRecorderOptions,
  KubeLeaseStore,
  type LeaderElectionConfig,
  type LeaderElectionObserver,
  LeaderElector,
  type LeadershipCallbacks,
  type LeadershipOptions,
  type LeaseRecord,
  type LeaseStore,
  type Logger,
  type ObjectRef,
  type TimerHandle,
  type WorkQueueMetrics,
  errorMessage,
  runLeadership,
  systemClock,
} from './kube/index.js';

// csr
export { type CreatedCsr, type CsrSubject, type ParsedCsr, createCsr, parseCsr } from './admit/index.js';

// the source seam: what an embedding controller's own source of Windows instances implements
export { assertOwns, type JoiningInstance, type NodeSource, type SourceInstance } from './lifecycle/index.js';
