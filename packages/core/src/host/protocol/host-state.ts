import { z } from 'zod';
import { evaluatedSchema } from './evaluate.js';
import { HOST_PROTOCOL_VERSION } from './version.js';

/** Windows service start types as `sc.exe qc` names them, in our lower-case spelling. */
export const serviceStartTypeSchema = z.enum(['auto', 'demand', 'disabled', 'boot', 'system']);
export type ServiceStartType = z.infer<typeof serviceStartTypeSchema>;

/** Service states as the service control manager reports them. */
export const serviceRunStateSchema = z.enum([
  'stopped',
  'start-pending',
  'stop-pending',
  'running',
  'continue-pending',
  'pause-pending',
  'paused',
  // Win32_Service reports 'Unknown' when the SCM cannot tell.
  'unknown',
]);
export type ServiceRunState = z.infer<typeof serviceRunStateSchema>;

export const serviceStateSchema = z.object({
  name: z.string(),
  state: serviceRunStateSchema,
  startType: serviceStartTypeSchema,
  /** `BinaryPathName`: the binary and its arguments. */
  commandLine: z.string(),
  dependencies: z.array(z.string()),
  description: z.string(),
  /**
   * The service's own environment (`HKLM\SYSTEM\CurrentControlSet\Services\<name>` value `Environment`,
   * REG_MULTI_SZ of `NAME=value` lines), read by the SCM at each start of the service. Absent: no value.
   */
  environment: z.array(z.string()).optional(),
});
export type ServiceState = z.infer<typeof serviceStateSchema>;

export const routeStateSchema = z.object({
  destinationPrefix: z.string(),
  nextHop: z.string(),
  interfaceIndex: z.number().int(),
});
export type RouteState = z.infer<typeof routeStateSchema>;

export const hnsNetworkSchema = z.object({ name: z.string(), type: z.string(), id: z.string() });
export type HnsNetwork = z.infer<typeof hnsNetworkSchema>;

/**
 * A firewall rule as `Get-NetFirewallPortFilter` reports it. `localPorts` is `MSFT_NetProtocolPortFilter.LocalPort`,
 * a string array: one entry per port or range (`'10250'`, `'49152-65535'`), or `'Any'`. A rule someone edited
 * by hand may have any protocol (`'Any'`, a number), so `protocol` is the text Windows reports.
 */
export const firewallRuleStateSchema = z.object({
  name: z.string(),
  protocol: z.string(),
  localPorts: z.array(z.string()),
  direction: z.enum(['Inbound', 'Outbound']),
});
export type FirewallRuleState = z.infer<typeof firewallRuleStateSchema>;

/** A port that inbound traffic needs (`observe` request field `firewallPorts`). */
export const firewallPortSchema = z.object({
  protocol: z.enum(['TCP', 'UDP']),
  localPort: z.number().int().min(1).max(65535),
});
export type FirewallPort = z.infer<typeof firewallPortSchema>;

/** A requested port and the display names of the enabled inbound Allow rules that cover it (may be none). */
export const firewallPortStateSchema = firewallPortSchema.extend({ rules: z.array(z.string()) });
export type FirewallPortState = z.infer<typeof firewallPortStateSchema>;

/**
 * What `observe` returns: the parts of a Windows host the operator manages. Files, env vars, firewall rules
 * and services are only those the observe request asked about (plus every service tagged `OpenShift managed`).
 */
export const hostStateSchema = z.object({
  v: z.literal(HOST_PROTOCOL_VERSION),
  hostname: z.string(),
  /** e.g. build 20348, UBR 2700 for Windows Server 2022. */
  os: z.object({ build: z.number().int(), ubr: z.number().int() }),
  containersFeature: z.boolean(),
  /**
   * ISO-8601, from `Win32_OperatingSystem.LastBootUpTime`: for people only. It is the clock minus the uptime,
   * so it moves between reads without a reboot; a reboot is told by `bootId` (ADR 0032).
   */
  lastBootTime: z.string(),
  /** Changes at every boot and at no other time (a GUID in a volatile registry key, ADR 0032). */
  bootId: z.string().min(1),
  /** Free bytes on the system drive. */
  freeDiskBytes: z.number(),
  defaultShell: z.enum(['cmd', 'powershell']),
  /** Requested directories that exist. */
  directories: z.array(z.string()),
  /** Managed files that exist, with their SHA-256 (lower-case hex). Missing files are absent. */
  files: z.array(z.object({ path: z.string(), sha256: z.string() })),
  /** SHA-256 names of complete files in the staging folder. */
  staged: z.array(z.string()),
  services: z.array(serviceStateSchema),
  /** Managed system environment variables that are set (HKLM ... Session Manager\Environment). */
  envVars: z.record(z.string(), z.string()),
  routes: z.array(routeStateSchema),
  hnsNetworks: z.array(hnsNetworkSchema),
  firewallRules: z.array(firewallRuleStateSchema),
  /** One entry per requested `firewallPorts` port, in request order; absent when none were asked for. */
  firewallPorts: z.array(firewallPortStateSchema).optional(),
  /**
   * For each requested `listDirectories` folder that exists: the names of its sub-folders (links included,
   * as links). Absent when none were asked for.
   */
  children: z.record(z.string(), z.array(z.string())).optional(),
  /**
   * Machine Root store certificates (`Cert:\LocalMachine\Root`): the requested `rootCertificates` that are
   * there, and every certificate carrying the operator's mark (`managed`). Absent when none were asked for.
   */
  rootCertificates: z.array(z.object({ thumbprint: z.string(), managed: z.boolean() })).optional(),
  /**
   * The `ovnkube-client-*.pem` file names in hybrid-overlay's certificate folder (`HostPaths.clientCertificates`),
   * links included as themselves. Absent when not asked for.
   */
  clientCertificates: z.array(z.string()).optional(),
  /**
   * For the requested `checkFolders`, in request order, each existing folder the module would refuse to use
   * (a reparse point, writable by non-administrators, another owner): why, and the fix. Absent when none
   * were asked for.
   */
  folderProblems: z.array(z.object({ path: z.string(), reason: z.string(), fix: z.string() })).optional(),
  /** Results of the request's `evaluate` scripts by name; `{}` when none were asked for. */
  evaluated: z.record(z.string(), evaluatedSchema).default({}),
});
export type HostState = z.infer<typeof hostStateSchema>;
