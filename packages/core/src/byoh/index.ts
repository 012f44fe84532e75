export { ByohControllers, type ByohControllersOptions } from './byoh-controllers.js';
export type { ByohView } from './byoh-view.js';
export { JoinFlow, type JoinRequest } from './join-flow.js';
export { RemoveFlow, type RemoveOptions } from './remove-flow.js';
export type { JoinDeps, HostTarget, JoinTimings } from './join-deps.js';
export * from './instance-status.js';
export { ConfigMapHostKeyStore, InformedHostKeyStore } from './kube-host-key-store.js';
export { InformedClusterFacts } from './informed-cluster-facts.js';
export { CsrReconciler, type CsrReconcilerOptions } from './csr-reconciler.js';
export { ClusterAddresses, type ClusterAddressesOptions } from './cluster-addresses.js';
export { InstancesReconciler } from './instances-reconciler.js';
export { DriftRepair, type DriftCheck, type DriftOutcome } from './drift-repair.js';
export { planNode } from './node-plan.js';
export {
  designNode,
  designContent,
  hostSpecWith,
  nodeHostSpec,
  nodeScripts,
  variableScripts,
  type NodeDesign,
  type NodeDesignDeps,
} from './node-spec.js';
export {
  observeAndPlan,
  applyObserved,
  convergeRound,
  HostScriptError,
  type ObservedPlan,
} from './converge-round.js';
export { nodeInternalIp, isNodeReady } from './node-ops.js';
export {
  CloudJoin,
  CloudAnnotations,
  appliedTagsOf,
  type CloudJoinOptions,
  type CloudFacts,
} from './cloud-instance.js';
export { ConcurrencyBudget, type ServiceDisruption } from './service-disruption.js';
