import type { HostSpec } from './host-spec.js';
import { HostPaths } from '../host/protocol/host-paths.js';
import type { PayloadEntry } from './payload-manifest.js';
import type { PersistentRoute, WindowsServiceSpec } from '../provider/index.js';
import type { GeneratedFile } from './generated-files.js';
import { EXPORTER_SERVICE, EXPORTER_TLS_FILES } from './exporter-tls-files.js';

/** Directories every node has, in creation order (reference §3.6 RequiredDirectories). */
export const REQUIRED_DIRECTORIES: readonly string[] = [
  'C:\\Temp',
  'C:\\k',
  'C:\\k\\cni',
  'C:\\k\\cni\\config',
  'C:\\var\\log',
  'C:\\var\\log\\kubelet',
  'C:\\var\\log\\csi-proxy',
  'C:\\var\\log\\kube-proxy',
  'C:\\var\\log\\hybrid-overlay',
  'C:\\k\\containerd',
  'C:\\var\\log\\containerd',
  'C:\\var\\log\\windows_exporter',
  'C:\\k\\containerd\\registries',
  'C:\\k\\etc\\kubernetes\\manifests',
  'C:\\k\\tls',
];

/** How many of hybrid-overlay's `ovnkube-client-*.pem` certificates a node keeps (upstream WICD's count). */
export const KEPT_CLIENT_CERTIFICATES = 2;

/** Firewall openings a node needs (upstream opens them in user data; BYOH hosts get them here). */
export const NODE_FIREWALL_RULES: HostSpec['firewallRules'] = [
  { name: 'ContainerLogsPort', protocol: 'TCP', localPort: 10250, direction: 'Inbound' },
  { name: 'WindowsExporter', protocol: 'TCP', localPort: 9182, direction: 'Inbound' },
];

export interface HostSpecInput {
  readonly payload: readonly PayloadEntry[];
  readonly generated: readonly GeneratedFile[];
  /** Services with every variable already substituted, in priority order. */
  readonly services: readonly WindowsServiceSpec[];
  readonly envVars: Readonly<Record<string, string>>;
  readonly routes: readonly PersistentRoute[];
  readonly serviceEnvironment?: HostSpec['serviceEnvironment'];
  readonly rootCertificates?: HostSpec['rootCertificates'];
  readonly serviceScripts?: HostSpec['serviceScripts'];
  /** Directories for generated files beyond the required ones (e.g. per-registry folders). */
}

function parentDirectories(paths: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const p of paths) {
    const parts = p.split('\\').slice(0, -1);
    for (let i = 2; i <= parts.length; i++) dirs.add(parts.slice(0, i).join('\\'));
  }
  return [...dirs];
}

/** Everything a host must hold, as one plain value for `plan()`. */
export function buildHostSpec(input: HostSpecInput): HostSpec {
  const files = [
    ...input.payload.map((p) => ({ path: p.destination, sha256: p.sha256 })),
    ...input.generated.map((g) => ({ path: g.path, sha256: g.sha256 })),
  ];
  const required = new Set(REQUIRED_DIRECTORIES.map((d) => d.toLowerCase()));
  const extra = parentDirectories(files.map((f) => f.path)).filter((d) => !required.has(d.toLowerCase()));
  return {
    directories: [...REQUIRED_DIRECTORIES, ...extra.sort((a, b) => a.length - b.length)],
    files,
    services: input.services,
    envVars: input.envVars,
    routes: input.routes,
    firewallRules: NODE_FIREWALL_RULES,
    features: ['Containers'],
    // The registry folder holds exactly the current mirror sets' hosts.toml folders (reference §1.15).
    prunedDirectories: [...HostPaths.prunableRoots],
    // hybrid-overlay rotates its client certificate every day and never deletes one (upstream WICD keeps 2).
    keptClientCertificates: KEPT_CLIENT_CERTIFICATES,
    // windows_exporter reads its certificate at start: a new one (rotation) restarts it.
    serviceFiles: { [EXPORTER_SERVICE]: [EXPORTER_TLS_FILES.cert, EXPORTER_TLS_FILES.key] },
    ...(input.serviceEnvironment ? { serviceEnvironment: input.serviceEnvironment } : {}),
    ...(input.rootCertificates ? { rootCertificates: input.rootCertificates } : {}),
    ...(input.serviceScripts ? { serviceScripts: input.serviceScripts } : {}),
  };
}
