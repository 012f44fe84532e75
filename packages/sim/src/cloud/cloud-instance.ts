/**
 * One simulated cloud instance, made from plain values so any simulated Windows host (or none) can stand
 * behind it: its private IP is the host's loopback address, its name the host's computer name.
 */
export interface CloudInstanceSpec {
  /** The host's address: the instance's private IPv4 address. */
  readonly privateIp: string;
  /** The instance name (GCE/Azure VM name); EC2 derives its own id. */
  readonly name: string;
  /** Availability zone (AWS, GCP) or Azure zone number. */
  readonly zone?: string;
  readonly tags?: Readonly<Record<string, string>>;
  /**
   * The network the instance's interface is in: an EC2 VPC ID, an Azure virtual network name (in the
   * resource group), a GCE network name. Each cloud defaults it to its cluster network; give another to
   * model a second network whose private range overlaps (the same `privateIp` may be used there).
   */
  readonly network?: string;
  /** Security groups (AWS) or network tags (GCP) the instance carries. */
  readonly groups?: readonly string[];
  /**
   * The user data the instance was created with, as the cloud stores it (EC2 `UserData`, Azure
   * `osProfile.customData`, GCE's Windows script metadata item); undefined for instances made without.
   */
  readonly userData?: string;
}

/** The mutable state of one simulated instance, shared by a cloud's handlers. */
export class SimCloudInstance {
  readonly tags = new Map<string, string>();
  /** Bumped on every tag/label change (GCE label fingerprint, Azure etag). */
  generation = 1;

  readonly name: string;
  readonly privateIp: string;
  readonly zone: string;
  readonly network: string;
  readonly groups: readonly string[];
  readonly userData: string | undefined;

  constructor(
    readonly id: string,
    spec: CloudInstanceSpec & { readonly zone: string; readonly network: string },
  ) {
    this.name = spec.name;
    this.privateIp = spec.privateIp;
    this.zone = spec.zone;
    this.network = spec.network;
    this.groups = spec.groups ?? [];
    this.userData = spec.userData;
    for (const [k, v] of Object.entries(spec.tags ?? {})) this.tags.set(k, v);
  }

  tagRecord(): Record<string, string> {
    return Object.fromEntries([...this.tags.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }

  setTags(changes: Readonly<Record<string, string | undefined>>): void {
    for (const [k, v] of Object.entries(changes)) {
      if (v === undefined) this.tags.delete(k);
      else this.tags.set(k, v);
    }
    this.generation += 1;
  }
}
