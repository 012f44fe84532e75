import type { PlanStep } from '../host/protocol/index.js';
import type { HostSpec } from '../desired/host-spec.js';

const lower = (s: string): string => s.toLowerCase();

/**
 * `steps` with each service's pre-scripts (`HostSpec.serviceScripts`) as `runScript` steps right before the
 * `startService` or `startServices` that starts it: one apply brings every level up in dependency order,
 * and a script sees what the levels before it created (network-conf.ps1 waits for hybrid-overlay's HNS
 * network, and kube-proxy depends on hybrid-overlay).
 */
export function withServiceScripts(steps: readonly PlanStep[], spec: HostSpec): PlanStep[] {
  const scripts = new Map(
    Object.entries(spec.serviceScripts ?? {}).map(([name, list]) => [lower(name), list]),
  );
  if (scripts.size === 0) return [...steps];
  return steps.flatMap((step) => {
    if (step.kind !== 'startService' && step.kind !== 'startServices') return [step];
    const names = step.kind === 'startService' ? [step.name] : step.names;
    const before = names.flatMap((name) =>
      (scripts.get(lower(name)) ?? []).map((s): PlanStep => ({
        kind: 'runScript',
        name: s.name,
        script: s.script,
        ...(s.args ? { args: { ...s.args } } : {}),
      })),
    );
    return [...before, step];
  });
}
