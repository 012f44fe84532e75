import { randomBytes } from 'node:crypto';
import { generateEd25519KeyPair } from '../windows/ssh-auth.js';
import { SimulatedWindowsHost, type SimulatedWindowsHostOptions } from '../windows/simulated-windows-host.js';
import type { JsonObject } from '../apiserver/json.js';
import type { CloudVm, MachineAddress, MachineCloud } from './clouds/machine-cloud.js';
import { bootFromUserData, type BootOutcome } from './user-data-boot.js';

/** What the actuator asks for when a Machine is created. */
export interface MachineInstanceRequest {
  readonly machineName: string;
  readonly platform: string;
  /** The providerSpec's user data (Secret `userData`), undefined when the Secret or key is missing. */
  readonly userData: string | undefined;
  /** The Machine's image is a Windows one (label machine.openshift.io/os-id=Windows). */
  readonly windows: boolean;
  /** The Machine's labels (its cluster ID label names the cloud ownership tag). */
  readonly labels?: Readonly<Record<string, string>>;
  /** `spec.providerSpec.value` (zone, tags, ... for a cloud). */
  readonly providerSpec?: JsonObject;
}

/** One VM behind a Machine. */
export interface MachineInstance {
  readonly address: string;
  /** The guest's computer name at first boot (a Windows image's `WIN-...` name, not the Machine's). */
  readonly hostname: string;
  /** What the user data did; undefined for a Linux stand-in. */
  readonly boot: BootOutcome | undefined;
  /** The simulated Windows host, when its SSH server is up. */
  readonly host: SimulatedWindowsHost | undefined;
  /** A cloud provider's `spec.providerID`; undefined where the actuator makes its own. */
  readonly providerId?: string;
  /** A cloud provider's `status.addresses`; undefined where the actuator reports the guest's. */
  readonly addresses?: readonly MachineAddress[];
  stop(): Promise<void>;
}

/** Creates and destroys the VMs behind Machines (the cloud or hypervisor of a machine-api provider). */
export interface MachineInstanceLauncher {
  launch(req: MachineInstanceRequest): Promise<MachineInstance>;
}

export interface SimInstanceLauncherOptions {
  /** A fresh loopback address per VM. */
  readonly allocateAddress: () => string;
  /** Host options every VM shares (costs, service behaviours, ...). */
  readonly host?: Partial<Omit<SimulatedWindowsHostOptions, 'address' | 'authorizedKey' | 'hostname'>>;
  readonly log?: (message: string) => void;
  /** Create each VM as an instance of this simulated cloud (AWS, Azure, GCP), as its machine-api provider does. */
  readonly cloud?: MachineCloud;
}

/** Windows Setup's default computer name: `WIN-` and 11 random letters and digits. */
function windowsDefaultName(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return `WIN-${[...randomBytes(11)].map((b) => alphabet[b % alphabet.length]).join('')}`;
}

/**
 * VMs as simulated Windows hosts that boot from their user data: the SSH server listens only when the
 * user data installed, enabled, started and opened sshd; the key it wrote is the only one accepted.
 * A host whose user data did not run is there (it has an address) but nothing answers on port 22.
 */
export class SimInstanceLauncher implements MachineInstanceLauncher {
  readonly instances = new Map<string, MachineInstance>();
  /** Released addresses to hand out before fresh ones (see `reuseAddress`). */
  private readonly released: string[] = [];
  /** Launches under way (a VM whose host is still booting is not in `instances` yet). */
  private readonly launching = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(private readonly o: SimInstanceLauncherOptions) {}

  /**
   * The next VM launched gets `address` (once no running VM has it), as a cloud's subnet or a vSphere IP
   * pool gives a released private address to the next instance. The new VM has a new SSH host key.
   */
  reuseAddress(address: string): void {
    this.released.push(address);
  }

  /**
   * Stops every VM, those still booting included: a launch under way when the stop comes ends with its VM
   * stopped (and rejects), and no launch starts after it. Without that, a VM that finished booting after
   * the stop listed the running ones kept its SSH server listening, and the process that ran the world
   * never exited (issue 28).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.launching]);
    await Promise.all([...this.instances.values()].map((i) => i.stop()));
  }

  async launch(req: MachineInstanceRequest): Promise<MachineInstance> {
    if (this.stopped) throw new Error(`machine ${req.machineName}: the hypervisor is stopping`);
    const launch = this.boot(req);
    this.launching.add(launch);
    try {
      return await launch;
    } finally {
      this.launching.delete(launch);
    }
  }

  private async boot(req: MachineInstanceRequest): Promise<MachineInstance> {
    const address = this.nextAddress();
    const vm = this.createInCloud(req, address);
    const hostname = vm?.computerName ?? windowsDefaultName();
    const boot = this.firstBoot(req, address, vm);
    const host = boot?.sshd ? await this.startHost(address, hostname, boot, vm) : undefined;
    const instance: MachineInstance = {
      address,
      hostname,
      boot,
      host,
      ...(vm ? { providerId: vm.providerId, addresses: vm.addresses } : {}),
      stop: async () => {
        this.instances.delete(req.machineName);
        vm?.terminate();
        await host?.stop();
      },
    };
    if (this.stopped) {
      await instance.stop();
      throw new Error(`machine ${req.machineName}: the hypervisor stopped while the VM booted`);
    }
    this.instances.set(req.machineName, instance);
    return instance;
  }

  private nextAddress(): string {
    const inUse = new Set([...this.instances.values()].map((i) => i.address));
    const free = this.released.findIndex((a) => !inUse.has(a));
    return free < 0
      ? this.o.allocateAddress()
      : (this.released.splice(free, 1)[0] ?? this.o.allocateAddress());
  }

  /** What the guest's first-boot agent does with the user data (it reaches a cloud's guest through the cloud). */
  private firstBoot(
    req: MachineInstanceRequest,
    address: string,
    vm: CloudVm | undefined,
  ): BootOutcome | undefined {
    if (!req.windows) return undefined;
    const boot = bootFromUserData(req.platform, vm ? vm.bootScript : req.userData);
    if (boot.problems.length > 0)
      this.o.log?.(`machine ${req.machineName} (${address}): user data: ${boot.problems.join('; ')}`);
    return boot;
  }

  /** The instance in the simulated cloud, as the platform's machine-api provider creates it. */
  private createInCloud(req: MachineInstanceRequest, address: string): CloudVm | undefined {
    return this.o.cloud?.create({
      machineName: req.machineName,
      address,
      userData: req.userData,
      windows: req.windows,
      labels: req.labels ?? {},
      providerSpec: req.providerSpec ?? {},
    });
  }

  private async startHost(
    address: string,
    hostname: string,
    boot: BootOutcome,
    vm: CloudVm | undefined,
  ): Promise<SimulatedWindowsHost> {
    const host = await SimulatedWindowsHost.start({
      ipv4: address,
      containersFeature: true,
      ...this.o.host,
      ...(this.o.log ? { log: this.o.log } : {}),
      ...(vm?.username ? { username: vm.username } : {}),
      ...(vm?.metadataHostname ? { metadataHostname: vm.metadataHostname } : {}),
      address,
      hostname,
      authorizedKey: boot.authorizedKey ?? generateEd25519KeyPair().public,
    });
    if (boot.authorizedKey === undefined) host.authorizeKeys([]);
    addMetadataRoutes(host, vm?.metadataRoutes ?? [], boot.metadataRoutesPersistent);
    return host;
  }
}

/**
 * The cloud agent's routes to its metadata service, added at first boot; unless the user data made them
 * persistent (EC2Launch v2 `add-routes --persistent`), a later boot loses them.
 */
function addMetadataRoutes(
  host: SimulatedWindowsHost,
  prefixes: readonly string[],
  persistent: boolean,
): void {
  for (const destinationPrefix of prefixes) {
    host.model.routes.push({ destinationPrefix, nextHop: '0.0.0.0', interfaceIndex: 6 });
    if (!persistent) host.model.volatileRoutes.add(destinationPrefix);
  }
}
