import type { V1Node } from '@kubernetes/client-node';

/**
 * The step of a disruptive action the operator is taking on a node (`Draining`, `Configuring`,
 * `WaitingReady` for an upgrade; `Rebooting` for a reboot). Set when the operator cordons the node and
 * removed when it uncordons it, so a node carrying it is one the operator took out of service: the
 * disruption budget counts it, and the next leader resumes what the previous one started.
 */
export const LIFECYCLE_PHASE_ANNOTATION = 'windowsmachineconfig.openshift.io/lifecycle-phase';

export type LifecyclePhase = 'Draining' | 'Rebooting' | 'Configuring' | 'WaitingReady';

const PHASES: ReadonlySet<string> = new Set<LifecyclePhase>([
  'Draining',
  'Rebooting',
  'Configuring',
  'WaitingReady',
]);

/**
 * The host's boot id when this maintenance pass first looked at it (set with the first converge round,
 * removed with the phase). A later look that finds another boot id knows the host has rebooted since, so a
 * successor leader resumes a reboot instead of rebooting the node a second time. Operators before ADR 0032
 * wrote the boot time here; such a value is still understood (boot-record.ts).
 */
export const LIFECYCLE_BOOT_ANNOTATION = 'windowsmachineconfig.openshift.io/lifecycle-boot-time';

/** Upstream's request (WICD sets it when a change needs a reboot; the node controller reboots). */
export const REBOOT_REQUIRED_ANNOTATION = 'windowsmachineconfig.openshift.io/reboot-required';
/** An admin's request for a graceful reboot (`wmco reboot NODE` sets it; the value is when it was asked). */
export const REBOOT_REQUESTED_ANNOTATION = 'windowsmachineconfig.openshift.io/reboot-requested';

/** Whether someone asked for this node to be rebooted (either annotation, any value). */
export function rebootRequested(node: V1Node | undefined): boolean {
  const a = node?.metadata?.annotations ?? {};
  return a[REBOOT_REQUIRED_ANNOTATION] !== undefined || a[REBOOT_REQUESTED_ANNOTATION] !== undefined;
}

/** The lifecycle phase the operator left on a node, or undefined. An unknown value reads as `Draining`. */
export function lifecyclePhase(node: V1Node | undefined): LifecyclePhase | undefined {
  const raw = node?.metadata?.annotations?.[LIFECYCLE_PHASE_ANNOTATION];
  if (raw === undefined) return undefined;
  return PHASES.has(raw) ? (raw as LifecyclePhase) : 'Draining';
}
