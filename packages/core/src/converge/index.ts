export { plan, type Plan } from './plan.js';
export { describe, describe as describePlan, describeStep } from './describe-plan.js';
export { converge, observeQueryFor, type ConvergeResult, type ConvergeOptions } from './converge.js';
export {
  observeAndPlan,
  applyObserved,
  convergeRound,
  HostScriptError,
  type ObservedPlan,
} from './converge-round.js';
export { REBOOT_STEPS, needsReboot } from './reboot-steps.js';
