import type { PersistentRoute, WindowsServiceSpec } from '../provider/index.js';

/**
 * Everything one Windows host must hold: a plain, serialisable value. The desired-state builders produce
 * it; `plan(state, spec)` compares it with what `observe` saw. Paths are absolute Windows paths; names and
 * values are taken literally (they travel inside JSON, never on a command line).
 */
export interface HostSpec {
  /** Directories that must exist, created in this order (reference §3.6 RequiredDirectories). */
  readonly directories: readonly string[];
  /** Files by destination and content hash; the bytes come from the payload when they must be uploaded. */
  readonly files: readonly HostSpecFile[];
  /**
   * Services with their command lines already resolved (node variables and pre-script values filled in).
   * Each is created with start type auto and the description `OpenShift managed <name>`.
   */
  readonly services: readonly WindowsServiceSpec[];
  /** System environment variables; a managed variable that is observed but absent here gets removed. */
  readonly envVars: Readonly<Record<string, string>>;
  readonly routes: readonly PersistentRoute[];
  readonly firewallRules: readonly FirewallRuleSpec[];
  /** Windows features that must be installed (only `Containers` so far). */
  readonly features: readonly 'Containers'[];
  /** Rename the host to this name (vSphere and Nutanix Machines); absent = leave the name alone. */
  readonly hostname?: string;
  /**
   * Folders (prunable roots, `HostPaths.prunableRoots`) that hold exactly the sub-folders this spec puts
   * files or directories in: any other sub-folder observed there is removed. Absent = nothing is pruned.
   */
  readonly prunedDirectories?: readonly string[];
  /**
   * Per-service environment (the service's `Environment` registry value, read at each service start), by
   * service name: exactly these variables; `{}` removes the value. Services not named are left alone.
   */
  readonly serviceEnvironment?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /**
   * Pre-scripts run for their effect (network-conf.ps1, the Defender exclusion), by service name: the plan
   * runs them inside the apply, in order, right before that service starts (upstream WICD runs a service's
   * pre-scripts before it starts the service). Value scripts are not here: `observe` evaluates those.
   */
  readonly serviceScripts?: Readonly<Record<string, readonly ServiceScript[]>>;
  /**
   * The machine Root store holds exactly these of the operator's certificates, imported from `bundle` (a
   * file of this spec): missing ones are imported, ones the operator added that left the list are removed.
   * Absent = the store is left alone.
   */
  readonly rootCertificates?: RootCertificatesSpec;
  /**
   * hybrid-overlay's client certificates (`ovnkube-client-*.pem` in `HostPaths.clientCertificates`) kept: all
   * but this many lexicographically newest are removed, as upstream WICD does with 2 (reference §1.5).
   * Absent = none is removed.
   */
  readonly keptClientCertificates?: number;
  /**
   * Files a service reads only when it starts, besides those its command line names, by service name
   * (windows_exporter's certificate, named in its web config): replacing one restarts the service.
   */
  readonly serviceFiles?: Readonly<Record<string, readonly string[]>>;
}

/** One pre-script to run on the host; `args` are bound as `$WmcoArg_<NAME>` (data, never script text). */
export interface ServiceScript {
  readonly name: string;
  readonly script: string;
  readonly args?: Readonly<Record<string, string>>;
}

export interface RootCertificatesSpec {
  /** The PEM bundle on the host the certificates are imported from, e.g. `C:\k\ca-bundle.crt`. */
  readonly bundle: string;
  /** Windows thumbprints (SHA-1 of the DER, upper-case hex) of the bundle's certificates. */
  readonly thumbprints: readonly string[];
}

export interface HostSpecFile {
  /** Destination, e.g. `C:\k\kubelet.exe`. */
  readonly path: string;
  /** SHA-256 of the content, lower-case hex. */
  readonly sha256: string;
}

export interface FirewallRuleSpec {
  readonly name: string;
  readonly protocol: 'TCP' | 'UDP';
  readonly localPort: number;
  readonly direction: 'Inbound' | 'Outbound';
}

/** The description every managed service carries; deconfigure finds services by it. */
export function managedDescription(serviceName: string): string {
  return `OpenShift managed ${serviceName}`;
}
