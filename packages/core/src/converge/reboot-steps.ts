import type { Plan } from './plan.js';
import type { PlanStep } from '../host/protocol/index.js';

/**
 * Steps that take effect only after a restart (the host module reports `rebootRequired` for them): machine
 * variables, the Containers feature, the hostname. The join reboots for them; drift repair of a Ready
 * node does not apply them but asks for a graceful reboot.
 */
export const REBOOT_STEPS: ReadonlySet<PlanStep['kind']> = new Set([
  'setEnvVar',
  'removeEnvVar',
  'installFeature',
  'setHostname',
]);

/** Whether applying `plan` needs a restart of the host before it takes effect. */
export function needsReboot(plan: Plan): boolean {
  return plan.steps.some((s) => REBOOT_STEPS.has(s.kind));
}
