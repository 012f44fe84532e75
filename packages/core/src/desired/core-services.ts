import type { PowerShellPreScript, WindowsServiceSpec } from '../provider/types/windows-service-spec.js';

/** What the core's own services depend on (upstream `GenerateManifest` arguments, reference §1.4). */
export interface CoreServiceOptions {
  /** `infrastructure/cluster .status.apiServerInternalURL`, given to hybrid-overlay-node. */
  readonly apiServerInternalUrl: string;
  /** Custom hybrid-overlay VXLAN port (digits), when the cluster sets one. */
  readonly vxlanPort?: string;
  /** Verbose logging (upstream `--debugLogging`). */
  readonly debug: boolean;
  /** `--cloud-provider` from the Linux workers' kubelet unit, when set there. */
  readonly cloudProvider?: string;
  /** Basename of `--cloud-config` from the Linux workers' kubelet unit; the file lives in `C:\k`. */
  readonly cloudConfigFile?: string;
  /** The platform's hostname command (HostnameOverride), run as the HOSTNAME_OVERRIDE pre-script. */
  readonly hostnameCommand?: string;
  /** Extra kubelet flags (ImageCredentialProvider). */
  readonly kubeletFlags?: readonly string[];
  /**
   * True when each service's output goes through kube-log-runner: services that write their own log file
   * then log to stderr instead, so the runner owns (and rotates) the file.
   */
  readonly logRunnerForAll: boolean;
}

/** A service plus the file its kube-log-runner writes. */
export interface ServiceWithLog {
  readonly spec: WindowsServiceSpec;
  readonly logFile: string;
  /** Wrapped by kube-log-runner even without rotation settings (upstream: kubelet and kube-proxy). */
  readonly alwaysLogRunner: boolean;
}

/**
 * NODE_IP: the IPv4 address of the interface Windows sends to the default gateway through. Upstream pipes
 * every default route into Get-NetIPAddress, which yields one line per route: two NICs with a default route
 * each, or a persistent route listed by both the active and the persistent store, gave a two-line NODE_IP.
 * Windows picks the default route with the lowest route metric plus interface metric; so does this (active
 * routes only, ties to the lower interface index), then the first address of that interface that may be a
 * source.
 */
export const NODE_IP_SCRIPT = [
  "$route = Get-NetRoute -DestinationPrefix '0.0.0.0/0' -AddressFamily IPv4 -PolicyStore ActiveStore |",
  // One key: metric sum first, interface index second (an ifIndex is a 32-bit number).
  'Sort-Object -Property { ([long]$_.RouteMetric + [long]$_.InterfaceMetric) * 4294967296 + [long]$_.ifIndex } |',
  'Select-Object -First 1;',
  "if ($null -eq $route) { throw 'no IPv4 default route' };",
  '(Get-NetIPAddress -AddressFamily IPv4 -InterfaceIndex $route.ifIndex |',
  'Where-Object { -not $_.SkipAsSource } | Select-Object -First 1).IPAddress',
].join(' ');
const log = (dir: string, file = dir): string => `C:\\var\\log\\${dir}\\${file}.log`;
const level = (debug: boolean): string => (debug ? 'debug' : 'info');
const verbosity = (debug: boolean): string => (debug ? '--v=4' : '--v=2');

function containerd(o: CoreServiceOptions): ServiceWithLog {
  const logFile = log('containerd');
  const ownLog = o.logRunnerForAll ? '' : ` --log-file ${logFile}`;
  const bin = 'C:\\k\\containerd\\containerd.exe';
  return {
    logFile,
    alwaysLogRunner: false,
    spec: {
      name: 'containerd',
      command: `${bin} --config C:\\k\\containerd\\containerd_conf.toml${ownLog} --run-service --log-level ${level(o.debug)}`,
      bootstrap: true,
      priority: 0,
      preScripts: [{ script: `C:\\Temp\\windows-defender-exclusion.ps1 -BinPath ${bin}` }],
    },
  };
}

function kubeletFlags(o: CoreServiceOptions): string[] {
  const flags = [
    'C:\\k\\kubelet.exe --config=C:\\k\\kubelet.conf --bootstrap-kubeconfig=C:\\k\\bootstrap-kubeconfig',
    '--kubeconfig=C:\\k\\kubeconfig --cert-dir=c:\\var\\lib\\kubelet\\pki\\ --windows-service',
    '--node-labels=node.openshift.io/os_id=Windows --windows-priorityclass=ABOVE_NORMAL_PRIORITY_CLASS',
    verbosity(o.debug),
  ];
  if (o.cloudProvider) flags.push(`--cloud-provider=${o.cloudProvider}`);
  if (o.cloudConfigFile) flags.push(`--cloud-config=C:\\k\\${o.cloudConfigFile}`);
  if (o.hostnameCommand) flags.push('--hostname-override=HOSTNAME_OVERRIDE');
  flags.push('--node-ip=NODE_IP', ...(o.kubeletFlags ?? []));
  return flags;
}

function kubelet(o: CoreServiceOptions): ServiceWithLog {
  const preScripts: PowerShellPreScript[] = [];
  if (o.hostnameCommand) preScripts.push({ variableName: 'HOSTNAME_OVERRIDE', script: o.hostnameCommand });
  preScripts.push({ variableName: 'NODE_IP', script: NODE_IP_SCRIPT });
  return {
    logFile: log('kubelet'),
    alwaysLogRunner: true,
    spec: {
      name: 'kubelet',
      command: kubeletFlags(o).join(' '),
      bootstrap: true,
      priority: 1,
      dependencies: ['containerd'],
      preScripts,
    },
  };
}

function windowsExporter(o: CoreServiceOptions): ServiceWithLog {
  const logFile = log('windows_exporter');
  const ownLog = o.logRunnerForAll ? '' : ` --log.file ${logFile}`;
  return {
    logFile,
    alwaysLogRunner: false,
    spec: {
      name: 'windows_exporter',
      command:
        'C:\\k\\windows_exporter.exe --collectors.enabled cpu,logical_disk,net,os,service,system,container,memory,cpu_info' +
        ` --web.config.file C:\\k\\tls\\windows-exporter-webconfig.yaml --log.level ${level(o.debug)}${ownLog}`,
      bootstrap: false,
      priority: 2,
    },
  };
}

function hybridOverlay(o: CoreServiceOptions): ServiceWithLog {
  const logFile = log('hybrid-overlay');
  const parts = [
    'C:\\k\\hybrid-overlay-node.exe --node NODE_NAME --bootstrap-kubeconfig=C:\\k\\kubeconfig',
    '--cert-dir=C:\\k\\cni\\config --cert-duration=24h --windows-service',
  ];
  if (!o.logRunnerForAll) parts.push(`--logfile ${logFile}`);
  parts.push(`--k8s-apiserver=${o.apiServerInternalUrl} --k8s-cacert C:\\k\\bootstrap-ca.crt`);
  if (o.vxlanPort) parts.push(`--hybrid-overlay-vxlan-port ${o.vxlanPort}`);
  if (o.debug) parts.push('--loglevel 5');
  return {
    logFile,
    alwaysLogRunner: false,
    spec: {
      name: 'hybrid-overlay-node',
      command: parts.join(' '),
      bootstrap: false,
      priority: 2,
      dependencies: ['kubelet'],
      nodeVariables: [{ name: 'NODE_NAME', jsonPath: '{.metadata.name}' }],
    },
  };
}

function csiProxy(o: CoreServiceOptions): ServiceWithLog {
  const logFile = log('csi-proxy');
  const logging = o.logRunnerForAll ? '-logtostderr=true' : `-log_file=${logFile} -logtostderr=false`;
  return {
    logFile,
    alwaysLogRunner: false,
    spec: {
      name: 'csi-proxy',
      command: `C:\\k\\csi-proxy.exe ${logging} -windows-service ${verbosity(o.debug)}`,
      bootstrap: false,
      priority: 2,
    },
  };
}

function kubeProxy(o: CoreServiceOptions): ServiceWithLog {
  return {
    logFile: log('kube-proxy'),
    alwaysLogRunner: true,
    spec: {
      name: 'kube-proxy',
      command: 'C:\\k\\kube-proxy.exe --config C:\\k\\kube-proxy.conf --windows-service',
      bootstrap: false,
      priority: 3,
      dependencies: ['hybrid-overlay-node'],
      preScripts: [
        {
          script:
            'C:\\Temp\\network-conf.ps1 -hostnameOverride NODE_NAME -clusterCIDR NODE_SUBNET -kubeConfigPath KUBE_CONFIG_PATH' +
            ' -kubeProxyConfigPath KUBE_PROXY_CONFIG_PATH -verbosity VERBOSITY',
          // QUIRK 3 kept on purpose: constants ride along as "JSONPaths" without braces, which evaluate to
          // their literal text, so the ConfigMap stays readable by upstream's WICD.
          nodeArgs: [
            { name: 'NODE_NAME', jsonPath: '{.metadata.name}' },
            {
              name: 'NODE_SUBNET',
              jsonPath: '{.metadata.annotations.k8s\\.ovn\\.org/hybrid-overlay-node-subnet}',
            },
            { name: 'KUBE_CONFIG_PATH', jsonPath: 'C:\\k\\kubeconfig' },
            { name: 'KUBE_PROXY_CONFIG_PATH', jsonPath: 'C:\\k\\kube-proxy.conf' },
            { name: 'VERBOSITY', jsonPath: o.debug ? '4' : '0' },
          ],
        },
      ],
    },
  };
}

/** containerd, kubelet, windows_exporter, hybrid-overlay-node, csi-proxy and kube-proxy, unwrapped. */
export function coreServices(o: CoreServiceOptions): ServiceWithLog[] {
  return [containerd(o), kubelet(o), windowsExporter(o), hybridOverlay(o), csiProxy(o), kubeProxy(o)];
}
