export { DisruptionBudget, unavailableReason, type BudgetDecision } from './disruption-budget.js';
export {
  parseMaxUnavailable,
  resolveMaxUnavailable,
  describeMaxUnavailable,
  MaxUnavailableError,
  type MaxUnavailable,
} from './max-unavailable.js';
export {
  LIFECYCLE_PHASE_ANNOTATION,
  LIFECYCLE_BOOT_ANNOTATION,
  REBOOT_REQUIRED_ANNOTATION,
  REBOOT_REQUESTED_ANNOTATION,
  lifecyclePhase,
  rebootRequested,
  type LifecyclePhase,
} from './lifecycle-annotations.js';
export { lifecycleOptions, type LifecycleOptions } from './lifecycle-options.js';
export {
  UpgradeFlow,
  type UpgradeOutcome,
  type UpgradeRequest,
  type UpgradeOptions,
} from './upgrade-flow.js';
export { NodeUpgrades, needsMaintenance } from './node-upgrades.js';
export { ServicesConfigMapKeeper, carriedVersions } from './services-configmap-keeper.js';
export {
  ActiveWork,
  UpgradeableReporter,
  busyNodes,
  UPGRADEABLE,
  NOT_UPGRADEABLE,
  type OperatorConditionPort,
  type UpgradeableCondition,
} from './upgradeable.js';
export { TrackedJoinFlow } from './tracked-join-flow.js';
export { KubeOperatorCondition } from './kube-operator-condition.js';
export { NodeMaintenance } from './maintenance.js';
export { NodeReconfigure, type ReconfigureResult } from './node-reconfigure.js';
export { assertOwns, type JoiningInstance, type NodeSource, type SourceInstance } from './node-source.js';
export { JoinFlow, type JoinRequest } from './join-flow.js';
export { RemoveFlow, type RemoveOptions } from './remove-flow.js';
export type { JoinDeps, HostTarget, JoinTimings } from './join-deps.js';
export type {
  DriftRepairDeps,
  JoinFlowDeps,
  MaintenanceDeps,
  ReconfigureDeps,
  UpgradeFlowDeps,
} from './flow-deps.js';
export * from './instance-status.js';
export { OPERATOR_STATUS_KEY, storedOperatorConditions, storedStatuses } from './stored-statuses.js';
export {
  operatorConditions,
  refusedStartConditions,
  withTransitions,
  type OperatorCondition,
  type OperatorConditionType,
  type OperatorFacts,
  type OperatorStatus,
  type PrivateKeyState,
} from './operator-conditions.js';
export { DriftRepair, type DriftCheck, type DriftOutcome } from './drift-repair.js';
export { planNode } from './node-plan.js';
export { nodeInternalIp, isNodeReady } from './node-ops.js';
export {
  CloudJoin,
  CloudAnnotations,
  appliedTagsOf,
  type CloudJoinOptions,
  type CloudFacts,
} from './cloud-instance.js';
export { ConcurrencyBudget, type ServiceDisruption } from './service-disruption.js';
export { recordDisagreements, type OperatorKey } from './node-record-check.js';
export { RecordMismatchReporter, NODE_RECORD_MISMATCH } from './record-mismatch-reporter.js';
export { addressGuardedOpener, AddressRefusedError } from './address-guarded-host.js';
