import type { PlanStep } from '../host/protocol/index.js';
import { isProxyUrlVariable, redactProxyCredentials } from '../desired/proxy-credentials.js';
import type { Plan } from './plan.js';

/**
 * Proxy URLs may carry credentials (`http://user:secret@proxy:3128`, `user:secret@proxy:3128`); a plan
 * preview or a drift event never shows them. Other values lose the userinfo of any URL with a scheme.
 */
function redactValue(name: string, value: string): string {
  if (isProxyUrlVariable(name)) return redactProxyCredentials(value);
  return value.replace(/\b([A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/)[^\s/?#]{0,255}@/g, '$1***@');
}

/** `NAME=value` with the value redacted. */
function redactAssignment(assignment: string): string {
  const eq = assignment.indexOf('=');
  return eq < 0
    ? assignment
    : `${assignment.slice(0, eq)}=${redactValue(assignment.slice(0, eq), assignment.slice(eq + 1))}`;
}

type Describers = { [K in PlanStep['kind']]: (step: Extract<PlanStep, { kind: K }>) => string };

const describers: Describers = {
  createDirectory: (s) => `create directory ${s.path}`,
  stopService: (s) => `stop service ${s.name}`,
  placeFile: (s) => `place file ${s.path} (sha256 ${s.sha256.slice(0, 12)}…)`,
  createService: (s) => `create service ${s.name}: ${s.commandLine}${deps(s.dependencies)}`,
  configureService: (s) => `reconfigure service ${s.name}: ${s.commandLine}${deps(s.dependencies)}`,
  startService: (s) => `start service ${s.name}`,
  deleteService: (s) => `stop and delete service ${s.name}`,
  startServices: (s) => `start services ${s.names.join(', ')} together`,
  runScript: (s) => `run pre-script ${s.name}: ${s.script}`,
  setEnvVar: (s) => `set environment variable ${s.name}=${redactValue(s.name, s.value)} (reboot)`,
  removeEnvVar: (s) => `remove environment variable ${s.name} (reboot)`,
  addRoute: (s) => `add persistent route ${s.destinationPrefix} via the default gateway`,
  addFirewallRule: (s) =>
    `allow ${s.direction.toLowerCase()} ${s.protocol} ${s.localPort} (firewall rule ${s.name})`,
  installFeature: (s) => `install Windows feature ${s.name} (reboot)`,
  setHostname: (s) => `rename host to ${s.name} (reboot)`,
  removeDirectory: (s) => `remove directory ${s.path}`,
  importRootCertificates: (s) =>
    `import ${s.thumbprints.length} certificate(s) of ${s.path} into the machine Root store: ${s.thumbprints.join(', ')}`,
  removeRootCertificate: (s) => `remove certificate ${s.thumbprint} from the machine Root store`,
  resetCniState: () => 'clear the CNI state folder C:\\var\\lib\\cni (host-local IP allocations)',
  removeClientCertificate: (s) =>
    `remove old hybrid-overlay client certificate C:\\k\\cni\\config\\${s.name}`,
  setServiceEnvironment: (s) =>
    s.environment.length === 0
      ? `clear the environment of service ${s.name}`
      : `set the environment of service ${s.name}: ${s.environment.map(redactAssignment).join(' ')}`,
};

/** One line per step, in words a person reads in `wmco plan`. Stable: no times, no ids. */
export function describeStep(step: PlanStep): string {
  return (describers[step.kind] as (s: PlanStep) => string)(step);
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
