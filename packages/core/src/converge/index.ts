export { plan, type Plan } from './plan.js';
export { describe, describe as describePlan, describeStep } from './describe-plan.js';
export {
  managedDescription,
  type HostSpec,
  type HostSpecFile,
  type FirewallRuleSpec,
  type ServiceScript,
  type RootCertificatesSpec,
} from './host-spec.js';
export { converge, observeQueryFor, type ConvergeResult, type ConvergeOptions } from './converge.js';
