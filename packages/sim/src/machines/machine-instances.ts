import { randomBytes } from 'node:crypto';
import { generateEd25519KeyPair } from '../windows/ssh-auth.js';
import { SimulatedWindowsHost, type SimulatedWindowsHostOptions } from '../windows/simulated-windows-host.js';
import { bootFromUserData, type BootOutcome } from './user-data-boot.js';

/** What the actuator asks for when a Machine is created. */
export interface MachineInstanceRequest {
  readonly machineName: string;
  readonly platform: string;
  /** The providerSpec's user data (Secret `userData`), undefined when the Secret or key is missing. */
  readonly userData: string | undefined;
  /** The Machine's image is a Windows one (label machine.openshift.io/os-id=Windows). */
  readonly windows: boolean;
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

  constructor(private readonly o: SimInstanceLauncherOptions) {}

  async launch(req: MachineInstanceRequest): Promise<MachineInstance> {
    const address = this.o.allocateAddress();
    const hostname = windowsDefaultName();
    const boot = req.windows ? bootFromUserData(req.platform, req.userData) : undefined;
    const host = boot?.sshd ? await this.startHost(address, hostname, boot) : undefined;
    if (boot && boot.problems.length > 0)
      this.o.log?.(`machine ${req.machineName} (${address}): user data: ${boot.problems.join('; ')}`);
    const instance: MachineInstance = {
      address,
      hostname,
      boot,
      host,
      stop: async () => {
        this.instances.delete(req.machineName);
        await host?.stop();
      },
    };
    this.instances.set(req.machineName, instance);
    return instance;
  }

  private async startHost(
    address: string,
    hostname: string,
    boot: BootOutcome,
  ): Promise<SimulatedWindowsHost> {
    const host = await SimulatedWindowsHost.start({
      ipv4: address,
      containersFeature: true,
      ...this.o.host,
      ...(this.o.log ? { log: this.o.log } : {}),
      address,
      hostname,
      authorizedKey: boot.authorizedKey ?? generateEd25519KeyPair().public,
    });
    if (boot.authorizedKey === undefined) host.authorizeKeys([]);
    return host;
  }
}
