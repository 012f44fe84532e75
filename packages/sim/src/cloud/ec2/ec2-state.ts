import { randomBytes } from 'node:crypto';
import { SimCloudInstance, type CloudInstanceSpec } from '../cloud-instance.js';

/** One ingress rule of a security group (`ipProtocol` `-1` means every protocol and port). */
export interface SimIngressRule {
  readonly protocol: 'tcp' | 'udp' | '-1';
  readonly fromPort: number;
  readonly toPort: number;
  /** Source security group ids. */
  readonly sourceGroups?: readonly string[];
  readonly cidrs?: readonly string[];
}

export interface SimSecurityGroup {
  readonly groupId: string;
  readonly groupName: string;
  readonly tags: Readonly<Record<string, string>>;
  readonly ingress: readonly SimIngressRule[];
}

export interface Ec2InstanceSpec extends CloudInstanceSpec {
  /** Defaults to EC2's `ip-a-b-c-d.<region>.compute.internal` (`ec2.internal` in us-east-1). */
  readonly privateDnsName?: string;
}

const vpcId = (): string => `vpc-${randomBytes(9).toString('hex').slice(0, 17)}`;

/** What one simulated EC2 region holds. */
export class Ec2State {
  readonly instances = new Map<string, SimCloudInstance>();
  readonly dnsNames = new Map<string, string>();
  readonly groups = new Map<string, SimSecurityGroup>();
  /** The cluster's VPC: instances are launched into it unless their spec names another. */
  readonly clusterVpcId = vpcId();
  /** Every VPC of the region; VPCs are separate address spaces, so their ranges may overlap. */
  readonly vpcs = new Set([this.clusterVpcId]);

  constructor(
    readonly region: string,
    readonly accountId: string,
  ) {}

  addInstance(spec: Ec2InstanceSpec): SimCloudInstance {
    const id = `i-${randomBytes(9).toString('hex').slice(0, 17)}`;
    const zone = spec.zone ?? `${this.region}a`;
    const network = spec.network ?? this.clusterVpcId;
    if (!this.vpcs.has(network)) throw new Error(`simulated EC2: no VPC ${network}`);
    const instance = new SimCloudInstance(id, { ...spec, name: id, zone, network });
    this.instances.set(id, instance);
    this.dnsNames.set(id, spec.privateDnsName ?? this.defaultDnsName(spec.privateIp));
    return instance;
  }

  /** CreateVpc: a new, empty VPC; returns its ID. */
  addVpc(): string {
    const id = vpcId();
    this.vpcs.add(id);
    return id;
  }

  /** TerminateInstances: the instance is gone from every later answer (true when it existed). */
  terminate(id: string): boolean {
    this.dnsNames.delete(id);
    return this.instances.delete(id);
  }

  addSecurityGroup(group: SimSecurityGroup): void {
    this.groups.set(group.groupId, group);
  }

  private defaultDnsName(ip: string): string {
    const domain = this.region === 'us-east-1' ? 'ec2.internal' : `${this.region}.compute.internal`;
    return `ip-${ip.replace(/\./g, '-')}.${domain}`;
  }
}
