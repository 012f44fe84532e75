export { ByohControllers, type ByohControllersOptions } from './byoh-controllers.js';
export type { ByohView } from './byoh-view.js';
export { ClusterAddresses, type ClusterAddressesOptions } from './cluster-addresses.js';
export { InstancesReconciler } from './instances-reconciler.js';
export { byohJoiningInstance, byohSourceInstance } from './byoh-instance.js';
export { planByohInstance, type ByohAction, type ByohPlan } from './byoh-plan.js';
export { NODE_TAKEN_OVER, NODE_TAKEOVER_REFUSED } from './byoh-takeover.js';
