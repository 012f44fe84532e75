import type { HostRequest, PlanStep } from '../protocol/index.js';
import type { ResolvedSshOptions } from './ssh-options.js';

type Timings = Pick<
  ResolvedSshOptions,
  'commandTimeoutMs' | 'quickCommandTimeoutMs' | 'applyStepTimeoutMs' | 'serviceStepTimeoutMs'
>;

/** What one plan step may take: a feature install the most, a service or script its start, else a write. */
function stepAllowance(o: Timings, step: PlanStep): number {
  switch (step.kind) {
    case 'installFeature':
      return o.commandTimeoutMs;
    case 'startServices':
      return step.names.length * o.serviceStepTimeoutMs;
    case 'startService':
    case 'stopService':
    case 'runScript':
      return o.serviceStepTimeoutMs;
    default:
      return o.applyStepTimeoutMs;
  }
}

/**
 * A request's deadline, sized to its work (issue 28): `observe` and `reboot`, which a host answers in
 * seconds, get `quickCommandTimeoutMs`; an `apply` gets that plus each step's allowance
 * (`serviceStepTimeoutMs` for a service start or stop or a script, `commandTimeoutMs` for a feature install,
 * `applyStepTimeoutMs` for any other step); a `deconfigure` likewise per service, network and folder.
 * Never more than `commandTimeoutMs`.
 */
export function requestDeadline(o: Timings, request: HostRequest): number {
  let work: number;
  switch (request.op) {
    case 'apply':
      work = request.steps.reduce((sum, step) => sum + stepAllowance(o, step), 0);
      break;
    case 'deconfigure':
      work =
        (request.services.length + request.hnsNetworks.length + (request.removeTaggedServices ? 1 : 0)) *
          o.serviceStepTimeoutMs +
        (request.directories.length + request.envVars.length) * o.applyStepTimeoutMs;
      break;
    default:
      work = 0;
  }
  return Math.min(o.commandTimeoutMs, o.quickCommandTimeoutMs + work);
}
