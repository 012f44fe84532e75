import { z } from 'zod';
import {
  envVarNameSchema,
  planStepSchema,
  serviceNameSchema,
  thumbprintSchema,
  windowsPathSchema,
} from './plan-step.js';
import { evaluateListSchema } from './evaluate.js';
import { firewallPortSchema } from './host-state.js';
import { HOST_PROTOCOL_VERSION } from './version.js';
import { HostPaths } from './host-paths.js';

function isProtectedRoot(path: string): boolean {
  return HostPaths.protectedRoots.some((r) => r.toLowerCase() === path.toLowerCase());
}

function isPrunableRoot(path: string): boolean {
  return HostPaths.prunableRoots.some((r) => r.toLowerCase() === path.toLowerCase());
}

const v = z.literal(HOST_PROTOCOL_VERSION);

/** Which managed things `observe` reports on. Everything tagged `OpenShift managed` is reported anyway. */
export const observeRequestSchema = z.object({
  v,
  op: z.literal('observe'),
  directories: z.array(windowsPathSchema),
  files: z.array(windowsPathSchema),
  services: z.array(serviceNameSchema),
  envVars: z.array(envVarNameSchema),
  firewallRules: z.array(z.string().min(1)),
  /** Ports to report the enabled inbound Allow rules for, whatever their names (`wmco preflight`). */
  firewallPorts: z.array(firewallPortSchema).optional(),
  /** PowerShell command lines run before the state is collected (pre-scripts); results in `evaluated`. */
  evaluate: evaluateListSchema.optional(),
  /** Prunable roots (`HostPaths.prunableRoots`) whose sub-folder names to report in `children`. */
  listDirectories: z
    .array(windowsPathSchema.refine(isPrunableRoot, 'only a prunable root may be listed'))
    .optional(),
  /**
   * Thumbprints to look for in the machine Root store; with this field (even empty) `rootCertificates` also
   * lists every certificate the operator marked as its own.
   */
  rootCertificates: z.array(thumbprintSchema).optional(),
  /** When true, `clientCertificates` lists hybrid-overlay's client certificate files. */
  clientCertificates: z.boolean().optional(),
  /**
   * Operator folders (`HostPaths.protectedRoots`) to check the way `apply` does before using them; what the
   * module would refuse is reported in `folderProblems` (`wmco preflight`).
   */
  checkFolders: z
    .array(windowsPathSchema.refine(isProtectedRoot, 'only an operator folder may be checked'))
    .optional(),
});

export const applyRequestSchema = z.object({
  v,
  op: z.literal('apply'),
  steps: z.array(planStepSchema),
  /**
   * When every step succeeded and one of them needs a reboot, schedule the restart (as `reboot` does) before
   * answering, so a join's reboot costs no PowerShell start of its own; the result says `rebootScheduled`.
   */
  rebootWhenRequired: z.boolean().optional(),
});

/** Revert the host to its state before joining (reference §1.6 Deconfigure and WICD cleanup). */
export const deconfigureRequestSchema = z.object({
  v,
  op: z.literal('deconfigure'),
  /** Deleted in this order, each after its dependents were stopped; a missing service is fine. */
  services: z.array(serviceNameSchema),
  /** Also delete every service whose description contains `OpenShift managed`. */
  removeTaggedServices: z.boolean(),
  envVars: z.array(envVarNameSchema),
  /**
   * Remove every certificate of the machine Root store that carries the operator's mark (set at import only
   * on a certificate that was not already there), so a Windows root or one an admin added stays.
   */
  removeManagedRootCertificates: z.boolean().optional(),
  /** Firewall rules to remove by name, each only when it carries the operator's mark (its Description). */
  firewallRules: z.array(z.string().min(1).max(200)).optional(),
  hnsNetworks: z.array(z.string().min(1)),
  /** Removed recursively in this order, except the `keep` files. */
  directories: z.array(windowsPathSchema),
  keep: z.array(windowsPathSchema),
  /** Then removed in this order when empty (parents the join created, such as `C:\var`); never a link. */
  removeIfEmpty: z.array(windowsPathSchema).optional(),
  /**
   * When the revert needs a restart, schedule it (as `reboot` does) in the call that finishes, before
   * answering; the result says `rebootScheduled` and the operator does not connect again.
   */
  rebootWhenRequired: z.boolean().optional(),
});

/** Schedule a restart a few seconds out, so the result still reaches the caller. */
export const rebootRequestSchema = z.object({ v, op: z.literal('reboot') });

export const hostRequestSchema = z.discriminatedUnion('op', [
  observeRequestSchema,
  applyRequestSchema,
  deconfigureRequestSchema,
  rebootRequestSchema,
]);

export type ObserveRequest = z.infer<typeof observeRequestSchema>;
export type ApplyRequest = z.infer<typeof applyRequestSchema>;
export type DeconfigureRequest = z.infer<typeof deconfigureRequestSchema>;
export type RebootRequest = z.infer<typeof rebootRequestSchema>;
export type HostRequest = z.infer<typeof hostRequestSchema>;
