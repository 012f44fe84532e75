import type { PlanStep } from '../host/protocol/index.js';
import type { HostSpec } from './host-spec.js';

const lower = (s: string): string => s.toLowerCase();

/**
 * `steps` with each service's pre-scripts (`HostSpec.serviceScripts`) as `runScript` steps right before that
 * service's `startService`: one apply brings every level up in dependency order, and a script sees what the
 * services started before it created (network-conf.ps1 waits for hybrid-overlay's HNS network).
 */
export function withServiceScripts(steps: readonly PlanStep[], spec: HostSpec): PlanStep[] {
  const scripts = new Map(
    Object.entries(spec.serviceScripts ?? {}).map(([name, list]) => [lower(name), list]),
  );
  if (scripts.size === 0) return [...steps];
  return steps.flatMap((step) => {
    if (step.kind !== 'startService') return [step];
    const before = (scripts.get(lower(step.name)) ?? []).map((s): PlanStep => ({
      kind: 'runScript',
      name: s.name,
      script: s.script,
      ...(s.args ? { args: { ...s.args } } : {}),
    }));
    return [...before, step];
  });
}
