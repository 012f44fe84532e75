import type { ServiceListener } from './windows-exporter.js';
import { HostPaths } from '@wmco/core/internal';
import { type FirewallRuleSpec, type HnsNetwork, type RouteState } from '@wmco/core';
import { FileSystem } from './file-system.js';
import { defaultServiceBehaviours, type ServiceBehaviourRegistry } from './service-behaviour.js';
import { ServiceControlManager } from './service-control-manager.js';
import { RootCertificateStore } from './root-certificate-store.js';
import { randomUUID } from 'node:crypto';
import { ReportedBootTime } from './reported-boot-time.js';
import { VolatileRegistry } from './volatile-registry.js';
import { NetworkInterfaces, type ModelInterface } from './network-interfaces.js';

/** Where WmcoHost.psm1's Get-WmcoBootId keeps the boot id (a volatile key under HKLM). */
const BOOT_ID_KEY = 'SOFTWARE\\wmco-boot';

export interface WindowsModelOptions {
  readonly hostname?: string;
  /** Windows Server 2022 by default. */
  readonly osBuild?: number;
  readonly ubr?: number;
  readonly containersFeature?: boolean;
  readonly defaultShell?: 'cmd' | 'powershell';
  readonly freeDiskBytes?: number;
  readonly behaviours?: ServiceBehaviourRegistry;
  /** The primary interface's default gateway. */
  readonly gateway?: string;
  /** The primary interface's IPv4 address (a kubelet reports it as the Node's InternalIP). */
  readonly ipv4?: string;
  /** `Primary Dns Suffix` in `ipconfig /all` (vSphere names nodes by the FQDN); none by default. */
  readonly dnsSuffix?: string;
  /**
   * The hostname the cloud's instance metadata reports (AWS `local-hostname`, GCP `instance/hostname`);
   * by default the host name, lower-cased, under `dnsSuffix` or `.internal`.
   */
  readonly metadataHostname?: string;
  /** The pod subnet of HNS networks created without one (the hybrid-overlay node subnet). */
  readonly podSubnet?: string;
  /** The host's files (default: in memory; the PowerShell engine passes a DiskFileSystem). */
  readonly files?: FileSystem;
}

/** An HNS network; subnet and management IP default to the model's pod subnet and IPv4. */
export interface ModelHnsNetwork extends HnsNetwork {
  subnet?: string;
  managementIp?: string;
}

/** An HNS endpoint (network-conf.ps1 creates `VIPEndpoint` on the host compartment). */
export interface ModelHnsEndpoint {
  readonly name: string;
  readonly networkId: string;
  readonly ipAddress: string;
}

const MODEL_DEFAULTS = {
  hostname: 'WIN-SIM',
  osBuild: 20348,
  ubr: 2700,
  containersFeature: false,
  defaultShell: 'cmd' as 'cmd' | 'powershell',
  freeDiskBytes: 100 * 2 ** 30,
  gateway: '10.0.0.1',
  ipv4: '10.0.0.10',
  dnsSuffix: '',
  podSubnet: '10.132.0.0/24',
};

/** The parts of one Windows machine the operator touches. Survives reboots (it is the disk). */
export class WindowsModel {
  readonly files: FileSystem;
  readonly scm: ServiceControlManager;
  /** System environment variables, keyed case-insensitively. */
  readonly envVars = new Map<string, { name: string; value: string }>();
  readonly routes: RouteState[];
  /** The interfaces behind the default routes (NODE_IP's choice); one NIC unless `addDefaultRoute` adds one. */
  readonly interfaces: NetworkInterfaces;
  /**
   * Destination prefixes of routes that are not persistent, so a boot loses them (a `route add` without
   * `-p`; on AWS, the metadata routes when EC2Launch did not persist them). Empty by default: a test sets it.
   */
  readonly volatileRoutes = new Set<string>();
  readonly hnsNetworks: ModelHnsNetwork[] = [];
  readonly hnsEndpoints: ModelHnsEndpoint[] = [];
  /** Paths excluded from Windows Defender scanning (windows-defender-exclusion.ps1). */
  readonly defenderExclusions: string[] = [];
  /** Whether Windows Defender (process MsMpEng) runs; some images have it uninstalled. */
  defenderRunning = true;
  /**
   * Rules with one port each (what the operator creates); observe reports `LocalPort` as a list. The
   * `description` is the rule's Description (the operator's mark `OpenShift managed` on the rules it made).
   */
  readonly firewallRules: (FirewallRuleSpec & { description?: string })[] = [];
  /** What services serve on the network, by service name (windows_exporter's HTTPS endpoint). */
  readonly listeners = new Map<string, ServiceListener>();
  /** `Cert:\LocalMachine\Root`. */
  readonly rootStore = new RootCertificateStore();
  hostname: string;
  /** Set by Rename-Computer; becomes `hostname` at the next boot. */
  pendingHostname: string | undefined;
  osBuild: number;
  ubr: number;
  containersFeature: boolean;
  /** Install-WindowsFeature done; enabled at the next boot. */
  containersPending = false;
  defaultShell: 'cmd' | 'powershell';
  freeDiskBytes: number;
  /** When the host really booted (stable; what tests compare). Windows reports it through `bootTime`. */
  lastBootTime = new Date();
  /** `Win32_OperatingSystem.LastBootUpTime`: drifts between reads (`bootTime.correctClock`, `stepChance`). */
  readonly bootTime = new ReportedBootTime();
  /** Volatile registry keys: gone at every power-off. */
  readonly volatileRegistry = new VolatileRegistry();
  readonly ipv4: string;
  dnsSuffix: string;
  readonly podSubnet: string;
  private readonly fixedMetadataHostname: string | undefined;

  constructor(o: WindowsModelOptions = {}) {
    const d = { ...MODEL_DEFAULTS, ...o };
    this.files = o.files ?? new FileSystem();
    this.scm = new ServiceControlManager(this, o.behaviours ?? defaultServiceBehaviours());
    this.hostname = d.hostname;
    this.osBuild = d.osBuild;
    this.ubr = d.ubr;
    this.containersFeature = d.containersFeature;
    this.defaultShell = d.defaultShell;
    this.freeDiskBytes = d.freeDiskBytes;
    this.ipv4 = d.ipv4;
    this.dnsSuffix = d.dnsSuffix;
    this.podSubnet = d.podSubnet;
    this.fixedMetadataHostname = o.metadataHostname;
    this.interfaces = new NetworkInterfaces({ ifIndex: 6, ipv4: d.ipv4, metric: 15 });
    this.routes = [
      { destinationPrefix: '0.0.0.0/0', nextHop: d.gateway, interfaceIndex: 6 },
      { destinationPrefix: '127.0.0.0/8', nextHop: '0.0.0.0', interfaceIndex: 1 },
    ];
    for (const dir of ['C:\\Windows\\System32', 'C:\\ProgramData', 'C:\\Users\\Administrator']) {
      this.files.mkdirp(dir);
    }
    // Writes into the operator's folders are checked against their ACL (tests assert none was early).
    this.files.watched = HostPaths.protectedRoots;
  }

  /** What the cloud's metadata service reports as this instance's hostname. */
  get metadataHostname(): string {
    return this.fixedMetadataHostname ?? `${this.hostname.toLowerCase()}.${this.dnsSuffix || 'internal'}`;
  }

  /** A second NIC with its own default route (a scenario: two default routes, as on a multi-homed host). */
  addDefaultRoute(iface: ModelInterface, o: { nextHop: string; routeMetric?: number }): void {
    const route = { ifIndex: iface.ifIndex, nextHop: o.nextHop, routeMetric: o.routeMetric ?? 0 };
    this.interfaces.add(iface, route);
    this.routes.push({ destinationPrefix: '0.0.0.0/0', nextHop: o.nextHop, interfaceIndex: iface.ifIndex });
  }

  /** `LastBootUpTime.ToUniversalTime().ToString('o')` as the module reads it: seven decimals, drifting. */
  readBootTime(): string {
    return this.bootTime.read(this.lastBootTime);
  }

  /** Get-WmcoBootId: the volatile key's GUID, written by the first read after a boot. */
  bootId(): string {
    const current = this.volatileRegistry.get(BOOT_ID_KEY, 'BootId');
    if (current !== undefined) return current;
    const id = randomUUID();
    this.volatileRegistry.set(BOOT_ID_KEY, 'BootId', id);
    return id;
  }

  /** Power off: services stop, memory (volatile registry keys) is lost; renames and features wait for `boot`. */
  halt(): void {
    this.scm.halt();
    this.volatileRegistry.clear();
  }

  /** Power on: apply pending changes, new boot time, auto-start services. */
  async boot(): Promise<void> {
    if (this.pendingHostname !== undefined) this.hostname = this.pendingHostname;
    this.pendingHostname = undefined;
    if (this.containersPending) this.containersFeature = true;
    this.containersPending = false;
    this.lastBootTime = new Date(Math.max(Date.now(), this.lastBootTime.getTime() + 1000));
    this.volatileRegistry.clear();
    this.bootTime.reset();
    const kept = this.routes.filter((r) => !this.volatileRoutes.has(r.destinationPrefix));
    this.routes.splice(0, this.routes.length, ...kept);
    await this.scm.boot();
  }
}
