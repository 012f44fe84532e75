import { resolveNodeVariables, substituteVariables } from '../desired/service-variables.js';
import type { WindowsServiceSpec } from '../provider/types/windows-service-spec.js';

/** A pre-script to run on the host; `variable` is the token its output fills, if any. */
export interface HostScript {
  readonly name: string;
  readonly script: string;
  readonly variable?: string;
}

/**
 * The pre-scripts of `services`, with their node arguments filled from `node` (reference §1.4): value
 * scripts (NODE_IP, HOSTNAME_OVERRIDE) and scripts run for their effect (Defender exclusion,
 * network-conf.ps1). Names are `<service>.<index>` so results map back to their service.
 */
export function scriptsFor(services: readonly WindowsServiceSpec[], node?: unknown): HostScript[] {
  return services.flatMap((s) =>
    (s.preScripts ?? []).map((p, i): HostScript => {
      const args = p.nodeArgs?.length ? resolveNodeVariables(p.nodeArgs, node) : {};
      const script = substituteVariables(p.script, args);
      return p.variableName
        ? { name: `${s.name}.${i}`, script, variable: p.variableName }
        : { name: `${s.name}.${i}`, script };
    }),
  );
}

/**
 * Services as the host runs them: node variables, then pre-script values, substituted into each
 * command line (upstream order). The result carries no variables or pre-scripts any more.
 */
export function resolveServices(
  services: readonly WindowsServiceSpec[],
  values: Readonly<Record<string, string>>,
  node?: unknown,
): WindowsServiceSpec[] {
  return services.map((s) => {
    const nodeValues = s.nodeVariables?.length ? resolveNodeVariables(s.nodeVariables, node) : {};
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
