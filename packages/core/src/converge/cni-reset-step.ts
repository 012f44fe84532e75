import type { HostState, PlanStep } from '../host/protocol/index.js';

/**
 * The step that clears `C:\var\lib\cni` before a configuration (upstream's Bootstrap, OCPBUGS-65625: host-local
 * IP allocations of an earlier configuration stay taken otherwise), first in the join's bootstrap apply. Only
 * while the kubelet is not running: a running kubelet has pods whose allocations live there (an in-place
 * upgrade keeps its DaemonSet pods), and clearing them would hand their addresses out again.
 */
export function cniResetSteps(state: HostState): PlanStep[] {
  const kubelet = state.services.find((s) => s.name.toLowerCase() === 'kubelet');
  return kubelet === undefined || kubelet.state === 'stopped' ? [{ kind: 'resetCniState' }] : [];
}
