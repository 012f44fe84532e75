import { z } from 'zod';
import { evaluateArgsSchema, evaluateNameSchema, evaluateScriptSchema } from './evaluate.js';
import { serviceStartTypeSchema } from './host-state.js';
import { CLIENT_CERTIFICATE_NAME, isPrunablePath } from './host-paths.js';

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 is 64 lower-case hex digits');
/** An absolute Windows path on a local drive, e.g. `C:\k\kubelet.exe`. No `..` segments. */
export const windowsPathSchema = z
  .string()
  .regex(/^[A-Za-z]:\\[^\r\n\0<>"|?*]*$/, 'expected an absolute Windows path like C:\\k\\kubelet.exe')
  .refine((p) => !p.split('\\').includes('..'), 'a path may not contain ".." segments');
/** NetBIOS-compatible host names: letters, digits and hyphens, 1-15 characters, not all digits. */
export const hostnameSchema = z
  .string()
  .regex(/^(?![0-9]+$)[A-Za-z0-9-]{1,15}$/, 'a Windows host name is 1-15 letters, digits or hyphens');
export const envVarNameSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,254}$/, 'environment variable names are letters, digits and "_"');
/** Service names: no quotes, slashes or control characters (the SCM refuses slashes anyway). */
export const serviceNameSchema = z
  .string()
  .regex(
    /^[^"\\/\r\n\0]{1,256}$/,
    'a service name is 1-256 characters without quotes, slashes or line breaks',
  );

/** A certificate's Windows thumbprint: the SHA-1 of its DER bytes, 40 upper-case hex digits. */
export const thumbprintSchema = z
  .string()
  .regex(/^[0-9A-F]{40}$/, 'a certificate thumbprint is 40 upper-case hex digits (SHA-1 of the DER bytes)');

/** One step of a Plan. The module performs steps in order and stops at the first failure. */
export const planStepSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('createDirectory'), path: windowsPathSchema }),
  z.object({ kind: z.literal('stopService'), name: serviceNameSchema }),
  /** Move `C:\ProgramData\wmco\staging\<sha256>` into place after checking its hash. */
  z.object({ kind: z.literal('placeFile'), path: windowsPathSchema, sha256 }),
  z.object({
    kind: z.literal('createService'),
    name: serviceNameSchema,
    commandLine: z.string().min(1),
    dependencies: z.array(serviceNameSchema),
    description: z.string(),
    startType: serviceStartTypeSchema,
  }),
  z.object({
    kind: z.literal('configureService'),
    name: serviceNameSchema,
    commandLine: z.string().min(1),
    dependencies: z.array(serviceNameSchema),
    description: z.string(),
    startType: serviceStartTypeSchema,
  }),
  z.object({ kind: z.literal('startService'), name: serviceNameSchema }),
  /**
   * Stop a service (its running dependents first) and delete it, waiting until it is gone; a missing service
   * is fine. Only for a service this operator does not manage (the Go WMCO's WICD, at a takeover).
   */
  z.object({ kind: z.literal('deleteService'), name: serviceNameSchema }),
  /**
   * Start services that do not depend on one another (one dependency level) together: each is started
   * (START_PENDING), then each is waited for until Running, so their start-ups overlap. The plan puts
   * their pre-scripts before it. A level of one service is a `startService`.
   */
  z.object({ kind: z.literal('startServices'), names: z.array(serviceNameSchema).min(2) }),
  /**
   * Run a service's pre-script for its effect (network-conf.ps1, the Defender exclusion) inside this apply,
   * arguments bound as `$WmcoArg_<NAME>` as in `observe`'s `evaluate`; a script that throws fails the step.
   * The plan puts it right before its service starts, so it sees what earlier starts created (the HNS
   * network of hybrid-overlay).
   */
  z.object({
    kind: z.literal('runScript'),
    name: evaluateNameSchema,
    script: evaluateScriptSchema,
    args: evaluateArgsSchema.optional(),
  }),
  /** Replace a service's `Environment` registry value; an empty list removes the value. */
  z.object({
    kind: z.literal('setServiceEnvironment'),
    name: serviceNameSchema,
    environment: z.array(
      z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*=[^\0\r\n]*$/, 'expected NAME=value without line breaks'),
    ),
  }),
  z.object({ kind: z.literal('setEnvVar'), name: envVarNameSchema, value: z.string() }),
  z.object({ kind: z.literal('removeEnvVar'), name: envVarNameSchema }),
  /** A persistent route through the default gateway of the primary interface. */
  z.object({
    kind: z.literal('addRoute'),
    destinationPrefix: z.string().regex(/^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/, 'expected an IPv4 CIDR'),
  }),
  z.object({
    kind: z.literal('addFirewallRule'),
    name: z.string().min(1).max(200),
    protocol: z.enum(['TCP', 'UDP']),
    localPort: z.number().int().min(1).max(65535),
    direction: z.enum(['Inbound', 'Outbound']),
  }),
  z.object({ kind: z.literal('installFeature'), name: z.literal('Containers') }),
  z.object({ kind: z.literal('setHostname'), name: hostnameSchema }),
  /** Remove one folder directly under a prunable root (`HostPaths.prunableRoots`), never following links. */
  z.object({
    kind: z.literal('removeDirectory'),
    path: windowsPathSchema.refine(
      isPrunablePath,
      'only a folder directly under a prunable root may be removed',
    ),
  }),
  /**
   * Import into `Cert:\LocalMachine\Root` the certificates of the PEM bundle at `path` whose thumbprints are
   * listed, each marked as the operator's (FriendlyName `OpenShift managed`); one already in the store is left.
   */
  z.object({
    kind: z.literal('importRootCertificates'),
    path: windowsPathSchema,
    thumbprints: z.array(thumbprintSchema).min(1),
  }),
  /** Remove one certificate from the machine Root store, only when the operator's mark is on it. */
  z.object({ kind: z.literal('removeRootCertificate'), thumbprint: thumbprintSchema }),
  /**
   * Clear the CNI plugins' state folder `C:\var\lib\cni` (host-local IPAM allocations) before a configuration,
   * as upstream's Bootstrap does (OCPBUGS-65625); a missing folder is fine.
   */
  z.object({ kind: z.literal('resetCniState') }),
  /**
   * Remove one of hybrid-overlay's client certificate files (`HostPaths.clientCertificates\<name>`, a link
   * removed as a link); a missing file is fine.
   */
  z.object({
    kind: z.literal('removeClientCertificate'),
    name: z.string().regex(CLIENT_CERTIFICATE_NAME, 'expected an ovnkube-client-*.pem file name'),
  }),
]);
export type PlanStep = z.infer<typeof planStepSchema>;
export type PlanStepKind = PlanStep['kind'];

/** An ordered list of steps that takes a host from what `observe` saw to its HostSpec (`converge/plan.ts` makes it). */
export interface Plan {
  readonly steps: readonly PlanStep[];
}
