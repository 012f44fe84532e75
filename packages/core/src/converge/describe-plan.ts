import type { PlanStep } from '../host/protocol/index.js';
import type { Plan } from './plan.js';

/** One line per step, in words a person reads in `wmco plan`. Stable: no times, no ids. */
export function describeStep(step: PlanStep): string {
  switch (step.kind) {
    case 'createDirectory':
      return `create directory ${step.path}`;
    case 'stopService':
      return `stop service ${step.name}`;
    case 'placeFile':
      return `place file ${step.path} (sha256 ${step.sha256.slice(0, 12)}…)`;
    case 'createService':
      return `create service ${step.name}: ${step.commandLine}${deps(step.dependencies)}`;
    case 'configureService':
      return `reconfigure service ${step.name}: ${step.commandLine}${deps(step.dependencies)}`;
    case 'startService':
      return `start service ${step.name}`;
    case 'setEnvVar':
      return `set environment variable ${step.name}=${step.value} (reboot)`;
    case 'removeEnvVar':
      return `remove environment variable ${step.name} (reboot)`;
    case 'addRoute':
      return `add persistent route ${step.destinationPrefix} via the default gateway`;
    case 'addFirewallRule':
      return `allow ${step.direction.toLowerCase()} ${step.protocol} ${step.localPort} (firewall rule ${step.name})`;
    case 'installFeature':
      return `install Windows feature ${step.name} (reboot)`;
    case 'setHostname':
      return `rename host to ${step.name} (reboot)`;
  }
}

function deps(dependencies: readonly string[]): string {
  return dependencies.length > 0 ? ` [after ${dependencies.join(', ')}]` : '';
}

/** The whole plan: a count, then numbered steps; or a sentence saying nothing changes. */
export function describe(p: Plan): string {
  if (p.steps.length === 0) return 'no changes: the host matches its spec';
  const width = String(p.steps.length).length;
  const lines = p.steps.map((s, i) => `${String(i + 1).padStart(width)}. ${describeStep(s)}`);
  return [`${p.steps.length} step${p.steps.length === 1 ? '' : 's'}:`, ...lines].join('\n');
}
