import {
  SimulatedWindowsHost,
  defaultServiceBehaviours,
  type HostCosts,
  type PowerShellEngineOptions,
  type KubeletBehaviourOptions,
} from '@wmco/sim';
import type { HostScenario } from './host-scenario.js';
import { threadId } from 'node:worker_threads';

/** One simulated host of the world. */
export interface SimHostSpec {
  /**
   * The computer name the host reports (any text: a hostile host may report a Linux node's name or
   * another host's); its kubelet registers it trimmed and lower-cased.
   */
  readonly hostname: string;
  /** A DNS name the world's resolver answers with the host's address. */
  readonly dnsName?: string;
  /** The loopback address the host listens on (default: one no other world on this machine uses). */
  readonly address?: string;
  /** How windows-instances lists the host (default: by `dnsName` when it has one, else by address). */
  readonly listAs?: 'ipv4' | 'dns';
  readonly defaultShell?: 'cmd' | 'powershell';
  readonly username?: string;
  /** The Containers feature is already enabled (default true; false makes the join install it and reboot). */
  readonly containersFeature?: boolean;
  /** Serve SSH on this port (0: ephemeral) instead of 22. */
  readonly sshPort?: number;
  /** The primary DNS suffix (`ipconfig /all`), as on a domain-joined vSphere VM. */
  readonly dnsSuffix?: string;
  /** What the cloud's metadata service answers as the host name (default: the model's, from the hostname). */
  readonly metadataHostname?: string;
  /**
   * With a simulated cloud: the network the host's instance is in (default the cluster's; `peer`: a second
   * network whose range overlaps, as another cluster's VPC reached through peering).
   */
  readonly cloudNetwork?: 'cluster' | 'peer';
  /** Tunes this host's simulated kubelet (e.g. a delay before it registers its Node). */
  readonly kubelet?: KubeletBehaviourOptions;
  /** What a staged host does besides joining (hosts files: literal keys, faults, hostile values). */
  readonly scenario?: HostScenario;
}

let nextOctet = 10;

/**
 * A loopback address no other world on this machine uses: the second and third octets come from the
 * process and worker thread (ava runs test files in worker threads of one process, each with its own
 * counter, and each simulated host listens on fixed ports such as windows_exporter's 9182), so two
 * workers collide only when their process and thread ids are 12,500 apart.
 */
function address(): string {
  const worker = process.pid * 64 + (threadId % 64);
  const second = 1 + (worker % 250);
  const third = 200 + (Math.floor(worker / 250) % 50);
  nextOctet = nextOctet >= 250 ? 10 : nextOctet + 1;
  return `127.${second}.${third}.${nextOctet}`;
}

/** How `spec` starts as a simulated host at `addr`. */
function hostOptions(
  spec: SimHostSpec,
  addr: string,
  shared: { authorizedKey: string; costs: HostCosts; powershell: PowerShellEngineOptions | undefined },
): Parameters<typeof SimulatedWindowsHost.start>[0] {
  const { authorizedKey, costs, powershell } = shared;
  return {
    address: addr,
    ipv4: addr,
    hostname: spec.hostname,
    authorizedKey,
    username: spec.username ?? 'Administrator',
    containersFeature: spec.containersFeature ?? true,
    costs,
    ...(spec.defaultShell ? { defaultShell: spec.defaultShell } : {}),
    ...(spec.sshPort !== undefined ? { port: spec.sshPort } : {}),
    ...(spec.metadataHostname !== undefined ? { metadataHostname: spec.metadataHostname } : {}),
    ...(spec.dnsSuffix !== undefined ? { dnsSuffix: spec.dnsSuffix } : {}),
    ...(spec.kubelet ? { behaviours: defaultServiceBehaviours(spec.kubelet) } : {}),
    ...(powershell ? { powershell } : {}),
  };
}

/** The world's Windows hosts, each on its own loopback address (its IPv4 as the node sees it too). */
export class WorldHostSet {
  private readonly renamed = new Map<string, string>();
  private readonly connectDeadlines = new Map<string, number>();
  private readonly requestDeadlines = new Map<string, number>();

  private constructor(
    readonly hosts: readonly { spec: SimHostSpec; sim: SimulatedWindowsHost; address: string }[],
  ) {}

  static async start(
    specs: readonly SimHostSpec[],
    authorizedKey: string,
    costs: HostCosts,
    /** Run the hosts' module sessions in this PowerShell (the PowerShell engine); absent: the model. */
    powershell?: PowerShellEngineOptions,
  ): Promise<WorldHostSet> {
    const hosts = [];
    for (const spec of specs) {
      const addr = spec.address ?? address();
      const sim = await SimulatedWindowsHost.start(
        hostOptions(spec, addr, { authorizedKey, costs, powershell }),
      );
      hosts.push({ spec, sim, address: addr });
    }
    return new WorldHostSet(hosts);
  }

  /**
   * Opens the cluster's hybrid overlay VXLAN port on every host (an inbound UDP rule), as the admin does
   * before listing a BYOH host (docs/byoh.md: the join does not open it; `wmco preflight` fails without it).
   */
  allowVxlan(port: number): void {
    for (const { sim } of this.hosts)
      if (!sim.model.firewallRules.some((r) => r.protocol === 'UDP' && r.localPort === port))
        sim.model.firewallRules.push({
          name: 'HybridOverlayVXLAN',
          protocol: 'UDP',
          localPort: port,
          direction: 'Inbound',
        });
  }

  /** The `windows-instances` key for a host: its DNS name when listed by it, else its address. */
  key(i: number): string {
    const h = this.hosts[i];
    if (!h) throw new Error(`no host ${i}`);
    return h.spec.listAs === 'ipv4' ? h.address : (h.spec.dnsName ?? h.address);
  }

  entry(i: number): [string, string] {
    return [this.key(i), `username=${this.hosts[i]?.spec.username ?? 'Administrator'}`];
  }

  /** How a host is shown: its windows-instances key, with the address when that is a DNS name. */
  label(address: string): string {
    const h = this.hosts.find((x) => x.address === address);
    return h?.spec.dnsName ? `${h.spec.dnsName} (${address})` : address;
  }

  byAddress(address: string): SimulatedWindowsHost | undefined {
    return this.hosts.find((h) => h.address === address)?.sim;
  }

  /** `machine`: the simulated host behind a Machine at `address` (not one of this set). */
  sshOverrides(
    address: string,
    machine?: SimulatedWindowsHost,
  ): {
    port?: number;
    retryInitialMs: number;
    retryMaxMs: number;
    connectDeadlineMs: number;
    authRetryMs: number;
    commandTimeoutMs: number;
    rebootTimeoutMs: number;
    sessionStartTimeoutMs?: number;
    quickCommandTimeoutMs?: number;
    sftpRequestTimeoutMs?: number;
  } {
    const sim = this.byAddress(address) ?? machine;
    const quick = this.requestDeadlines.get(address);
    return {
      ...(sim && sim.port !== 22 ? { port: sim.port } : {}),
      retryInitialMs: 50,
      retryMaxMs: 500,
      connectDeadlineMs: this.connectDeadlines.get(address) ?? 10_000,
      authRetryMs: 0,
      commandTimeoutMs: 60_000,
      rebootTimeoutMs: 30_000,
      ...(quick === undefined
        ? {}
        : { sessionStartTimeoutMs: quick, quickCommandTimeoutMs: quick, sftpRequestTimeoutMs: quick }),
    };
  }

  /** The deadline of every quick request to `address`: the module's start, observe, each SFTP request. */
  setRequestDeadline(address: string, ms: number): void {
    this.requestDeadlines.set(address, ms);
  }

  /** How long the operator keeps trying to connect to `address` (default 10 s in this world). */
  setConnectDeadline(address: string, ms: number): void {
    this.connectDeadlines.set(address, ms);
  }

  /** Makes the world's resolver answer `name` with `address` from now on (a DNS record changed). */
  pointName(name: string, address: string): void {
    this.renamed.set(name.toLowerCase(), address);
  }

  resolve(name: string): Promise<readonly string[]> {
    const moved = this.renamed.get(name.toLowerCase());
    if (moved !== undefined) return Promise.resolve([moved]);
    const h = this.hosts.find((x) => x.spec.dnsName?.toLowerCase() === name.toLowerCase());
    return h ? Promise.resolve([h.address]) : Promise.reject(new Error(`${name}: no such host (NXDOMAIN)`));
  }

  async stop(): Promise<void> {
    await Promise.all(this.hosts.map((h) => h.sim.stop()));
  }
}
