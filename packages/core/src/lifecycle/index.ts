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
export { KubeOperatorCondition } from '../kube/client/kube-operator-condition.js';
export { NodeMaintenance } from './maintenance.js';
export { NodeReconfigure, type ReconfigureResult } from './node-reconfigure.js';
export { byohSubject, assertSubjectOwns, type MaintenanceSubject } from './maintenance-subject.js';
