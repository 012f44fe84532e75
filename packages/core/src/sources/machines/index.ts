export { MachineControllers, type MachineControllersOptions } from './machine-controllers.js';
export {
  MachineLabels,
  MACHINE_API_NAMESPACE,
  WINDOWS_MACHINE_SELECTOR,
  notConfigurable,
  windowsMachine,
  type MachineResource,
  type WindowsMachine,
} from './machine-object.js';
export {
  machineJoiningInstance,
  machineKey,
  machineSourceInstance,
  nodeMachine,
} from './machine-instance.js';
export { nodeOfMachine } from './machine-reconciler.js';
export { BudgetedReplacements, type MachineReplacements } from './machine-replacements.js';
export { MachineLifecycle } from './machine-lifecycle.js';
export {
  ensureUserDataSecrets,
  userDataSecret,
  USER_DATA_SECRET,
  CLUSTER_API_NAMESPACE,
} from './user-data-secret.js';
export {
  machineNodeState,
  planMachine,
  type MachineAction,
  type MachineNodeState,
  type MachinePlan,
  type MachinePlanInput,
} from './machine-plan.js';
