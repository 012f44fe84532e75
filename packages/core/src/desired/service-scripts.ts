import { substituteVariables } from './service-variables.js';
import type { PowerShellPreScript, WindowsServiceSpec } from '../provider/types/windows-service-spec.js';
import { typedNodeVariables } from './node-values.js';

/**
 * A pre-script to run on the host; `variable` is the token its output fills, if any. Node values never
 * become script text: each node argument token in the script is replaced by a reference to the PowerShell
 * variable `$WmcoArg_<TOKEN>`, and the value travels in `args`, which the host module binds as data.
 */
export interface HostScript {
  readonly name: string;
  readonly script: string;
  readonly variable?: string;
  readonly args?: Readonly<Record<string, string>>;
}

/** The PowerShell variable a node argument is bound to on the host. */
export const scriptArgVariable = (token: string): string => `$WmcoArg_${token}`;

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every token replaced by its variable reference in one pass, longest token first (no re-substitution). */
function referenceArgs(script: string, tokens: readonly string[]): string {
  if (tokens.length === 0) return script;
  const pattern = new RegExp(
    [...tokens]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|'),
    'g',
  );
  return script.replace(pattern, (token) => scriptArgVariable(token));
}

function hostScript(service: string, i: number, p: PowerShellPreScript, node: unknown): HostScript {
  const name = `${service}.${i}`;
  const variable = p.variableName ? { variable: p.variableName } : {};
  if (!p.nodeArgs?.length) return { name, script: p.script, ...variable };
  const args = typedNodeVariables(p.nodeArgs, node);
  return { name, script: referenceArgs(p.script, Object.keys(args)), ...variable, args };
}

/**
 * The pre-scripts of `services`, with their node arguments typed and bound as data (reference §1.4):
 * value scripts (NODE_IP, HOSTNAME_OVERRIDE) and scripts run for their effect (Defender exclusion,
 * network-conf.ps1). Names are `<service>.<index>` so results map back to their service. A node value of
 * the wrong type (a hostile hybrid-overlay subnet) throws NodeValueError before anything reaches the host.
 */
export function scriptsFor(services: readonly WindowsServiceSpec[], node?: unknown): HostScript[] {
  return services.flatMap((s) => (s.preScripts ?? []).map((p, i) => hostScript(s.name, i, p, node)));
}

/** Every node variable and node argument of `services`, checked for its type on `node`. */
export function checkServiceNodeValues(services: readonly WindowsServiceSpec[], node: unknown): void {
  for (const s of services) {
    if (s.nodeVariables?.length) typedNodeVariables(s.nodeVariables, node);
    for (const p of s.preScripts ?? []) if (p.nodeArgs?.length) typedNodeVariables(p.nodeArgs, node);
  }
}

/**
 * Services as the host runs them: node variables (typed), then pre-script values, substituted into each
 * command line (upstream order). The result carries no variables or pre-scripts any more.
 */
export function resolveServices(
  services: readonly WindowsServiceSpec[],
  values: Readonly<Record<string, string>>,
  node?: unknown,
): WindowsServiceSpec[] {
  return services.map((s) => {
    const nodeValues = s.nodeVariables?.length ? typedNodeVariables(s.nodeVariables, node) : {};
    const command = substituteVariables(substituteVariables(s.command, nodeValues), values);
    const missing = (s.preScripts ?? []).flatMap((p) =>
      p.variableName && !(p.variableName in values) ? [p.variableName] : [],
    );
    if (missing.length > 0) throw new Error(`service ${s.name}: no value for ${missing.join(', ')}`);
    return {
      name: s.name,
      command,
      bootstrap: s.bootstrap,
      priority: s.priority,
      ...(s.dependencies ? { dependencies: s.dependencies } : {}),
    };
  });
}
