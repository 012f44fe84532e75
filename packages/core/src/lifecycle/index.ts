export { DisruptionBudget, unavailableReason, type BudgetDecision } from './disruption-budget.js';
export {
  parseMaxUnavailable,
  resolveMaxUnavailable,
  describeMaxUnavailable,
  MaxUnavailableError,
  type MaxUnavailable,
} from './max-unavailable.js';
export { LIFECYCLE_PHASE_ANNOTATION, lifecyclePhase, type LifecyclePhase } from './lifecycle-annotations.js';
export { lifecycleOptions, type LifecycleOptions } from './lifecycle-options.js';
export {
  UpgradeFlow,
  type UpgradeOutcome,
  type UpgradeRequest,
  type UpgradeOptions,
} from './upgrade-flow.js';
export { NodeUpgrades, needsUpgrade } from './node-upgrades.js';
export { ServicesConfigMapKeeper, carriedVersions } from './services-configmap-keeper.js';
