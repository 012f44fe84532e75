import { createHash, randomBytes } from 'node:crypto';
import { SimCloudInstance, type CloudInstanceSpec } from '../cloud-instance.js';

/** A VPC firewall rule as compute v1 describes it (only the fields the project reads). */
export interface SimFirewall {
  readonly name: string;
  readonly direction?: 'INGRESS' | 'EGRESS';
  readonly disabled?: boolean;
  readonly sourceRanges?: readonly string[];
  readonly sourceTags?: readonly string[];
  readonly targetTags?: readonly string[];
  readonly allowed: readonly { readonly IPProtocol: string; readonly ports?: readonly string[] }[];
}

export interface GceOperation {
  readonly name: string;
  readonly id: string;
  readonly zone: string;
  readonly operationType: string;
  readonly targetLink: string;
  readonly targetId: string;
  readonly insertTime: string;
  done: boolean;
}

/** What one simulated GCE project holds. */
export class GceState {
  readonly instances = new Map<string, SimCloudInstance>();
  readonly firewalls: SimFirewall[] = [];
  readonly operations = new Map<string, GceOperation>();
  /** Runs as a setLabels request arrives, before its fingerprint is checked: a concurrent writer. */
  beforeSetLabels: ((instance: SimCloudInstance) => void) | undefined;

  /**
   * The cluster's VPC network (the installer names it `<infraID>-network`); instances are created in it
   * unless their spec names another network of the project, whose subnet ranges may overlap.
   */
  readonly clusterNetwork: string;

  constructor(
    readonly project: string,
    readonly region: string,
    clusterNetwork?: string,
  ) {
    this.clusterNetwork = clusterNetwork ?? `${project}-network`;
  }

  addInstance(spec: CloudInstanceSpec): SimCloudInstance {
    const zone = spec.zone ?? `${this.region}-a`;
    const network = spec.network ?? this.clusterNetwork;
    const name = spec.name.toLowerCase();
    if (!/^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/.test(name))
      throw new Error(`GCE instance names must be RFC 1035 labels: '${spec.name}'`);
    const id = String(1_000_000_000_000_000_000n + BigInt(`0x${randomBytes(6).toString('hex')}`));
    const instance = new SimCloudInstance(id, { ...spec, name, zone, network });
    this.instances.set(`${zone}/${name}`, instance);
    return instance;
  }

  /** instances.delete: true when the instance existed. */
  deleteInstance(zone: string, name: string): boolean {
    return this.instances.delete(`${zone}/${name}`);
  }

  find(zone: string, name: string): SimCloudInstance | undefined {
    return this.instances.get(`${zone}/${name}`);
  }

  /** The opaque label fingerprint: changes whenever the labels change. */
  static fingerprint(instance: SimCloudInstance): string {
    return createHash('sha256')
      .update(`${instance.id}/${instance.generation}`)
      .digest()
      .subarray(0, 8)
      .toString('base64');
  }

  newOperation(zone: string, type: string, target: SimCloudInstance, targetLink: string): GceOperation {
    const op: GceOperation = {
      name: `operation-${Date.now()}-${randomBytes(6).toString('hex')}`,
      id: String(BigInt(`0x${randomBytes(7).toString('hex')}`)),
      zone,
      operationType: type,
      targetLink,
      targetId: target.id,
      insertTime: new Date().toISOString(),
      done: false,
    };
    this.operations.set(`${zone}/${op.name}`, op);
    return op;
  }
}
