import { parseMaxUnavailable } from '@wmco/core/internal';
import { z } from 'zod';
import { hostLimitsSchema } from './host-limits-config.js';

/** Everything `wmco run` needs, validated at start (flags and environment, upstream names where they exist). */
export const operatorConfigSchema = z.object({
  kubeconfig: z.string().optional(),
  context: z.string().optional(),
  /** WATCH_NAMESPACE: the one namespace the operator works in. */
  namespace: z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a namespace name (RFC 1123 label)'),
  payloadDir: z.string().min(1),
  /** Hosts joined at once. */
  parallelJoins: z.number().int().min(1).max(50),
  /** Hosts uploading the payload at once, across joins and upgrades (unset: no limit). */
  parallelUploads: z.number().int().min(1).max(50).optional(),
  debug: z.boolean(),
  logLevel: z.enum(['debug', 'info', 'warn', 'error']),
  /** host:port for /healthz and /readyz (plain HTTP); empty to disable. */
  probeAddress: z.string(),
  /** host:port for /metrics over HTTPS with TokenReview/SubjectAccessReview; empty to disable. */
  metricsAddress: z.string().optional(),
  /** Directory with the metrics serving certificate (`tls.crt`, `tls.key`). */
  metricsCertDir: z.string().optional(),
  leaderElection: z.boolean(),
  /** Lease holder identity (POD_NAME). */
  identity: z.string().min(1),
  privateKeySecret: z.string().min(1),
  providerPackages: z.array(z.string()),
  /** SERVICES_LOG_FILE_SIZE / _AGE / _FLUSH_INTERVAL, raw (validated by the log-rotation parser). */
  servicesLog: z.object({
    size: z.string().optional(),
    age: z.string().optional(),
    flushInterval: z.string().optional(),
  }),
  /** HTTP_PROXY / HTTPS_PROXY / NO_PROXY for the nodes, verbatim. */
  proxyEnv: z.record(z.string(), z.string()),
  keepLogsOnRemoval: z.boolean(),
  /**
   * The admin's drain timeout (ADR 0037): after it, a removal or upgrade whose drain a PodDisruptionBudget
   * blocks deletes the remaining pods and goes on (DrainTimeout event). Unset: wait, as before.
   */
  drainForceAfterMs: z.number().int().min(0).optional(),
  /** How often Ready nodes are checked for drift and repaired; 0 turns drift repair off (default 2 min). */
  driftRepairIntervalMs: z.number().int().min(0).optional(),
  /**
   * Non-OpenShift clusters: kubelet client CSRs come from bootstrap tokens in this group. Unset: OpenShift's
   * node-bootstrapper service account (ADR 0008).
   */
  bootstrapGroup: z
    .string()
    .regex(
      /^system:bootstrappers(:[\x21-\x7e]+)?$/,
      'must be system:bootstrappers or system:bootstrappers:<name>',
    )
    .optional(),
  /** How long a join's node-name registration may get its client CSR approved (default 15 min). */
  registrationTimeoutMs: z.number().int().min(1000).optional(),
  /**
   * Accept `windows-instances` keys that reach 127.0.0.0/8. Off unless set: only the simulated world
   * (`wmco sim`, the test world), whose hosts live on loopback addresses, sets it; `wmco run` has no flag.
   */
  allowLoopbackInstances: z.boolean().optional(),
  /** OPERATOR_CONDITION_NAME (set by OLM): the OperatorCondition to report `Upgradeable` on; unset: none. */
  operatorConditionName: z.string().min(1).optional(),
  /** Windows nodes that upgrades and reboots may take out of service at once: `1`, `2`, `25%` (default 1). */
  maxUnavailable: z
    .string()
    .refine(
      (v) => {
        try {
          parseMaxUnavailable(v);
          return true;
        } catch {
          return false;
        }
      },
      { message: 'must be a whole number ≥ 1 or a percentage between 1% and 100% (e.g. 1, 2, 25%)' },
    )
    .optional(),
  /**
   * BYOH instances on AWS, Azure and GCP: `check` (default) only reports the cluster ownership tag;
   * `apply` adds it as `shared` when missing (the cloud provider counts the instance as the cluster's,
   * `openshift-install destroy cluster` leaves it) and takes back on removal exactly what it added;
   * `apply-owned` adds it as `owned`, which destroy deletes with the cluster: only when asked.
   */
  cloudTagging: z
    .enum(['check', 'apply', 'apply-owned'], { message: "must be 'check', 'apply' or 'apply-owned'" })
    .optional(),
  /**
   * AWS, Azure and GCP credentials: `minted` (default) reads the Secret the cloud credential operator
   * mints from the operator's CredentialsRequest; `root` reads the installer's root Secret in kube-system.
   */
  cloudCredentials: z.enum(['minted', 'root'], { message: "must be 'minted' or 'root'" }).optional(),
  /** Deadlines and output bounds of host operations (host-limits-config.ts); unset: the defaults. */
  hostLimits: hostLimitsSchema.optional(),
});
export type OperatorConfig = z.infer<typeof operatorConfigSchema>;

/** Readable problems, one per line, for the start-up error message. */
export function configProblems(input: unknown): string[] {
  const r = operatorConfigSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`);
}
