import { randomBytes } from 'node:crypto';
import { isObject, str } from '../../apiserver/json.js';
import type { SimEc2 } from '../../cloud/ec2/sim-ec2.js';
import {
  clusterIdOf,
  specObject,
  specString,
  type CloudVm,
  type CloudVmRequest,
  type MachineCloud,
} from './machine-cloud.js';

/** EC2's Windows AMIs name the computer `EC2AMAZ-` and 7 random letters and digits at first boot. */
function ec2ComputerName(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return `EC2AMAZ-${[...randomBytes(7)].map((b) => alphabet[b % alphabet.length]).join('')}`;
}

/** AWSMachineProviderConfig `tags`: a list of `{name, value}`. */
function providerTags(spec: CloudVmRequest['providerSpec']): Record<string, string> {
  const list = spec['tags'];
  const out: Record<string, string> = {};
  for (const t of Array.isArray(list) ? list.filter(isObject) : []) {
    const name = str(t['name']);
    if (name !== undefined && name !== '') out[name] = str(t['value']) ?? '';
  }
  return out;
}

/**
 * machine-api-provider-aws against the simulated EC2: RunInstances with the user data Secret's bytes as
 * `UserData`, tagged `kubernetes.io/cluster/<clusterID>: owned` and `Name: <machine>` plus the
 * providerSpec's tags, in `placement.availabilityZone`; providerID `aws:///<zone>/<instance-id>`;
 * addresses InternalIP and the private DNS name as InternalDNS and Hostname (its `extractNodeAddresses`).
 */
export class Ec2MachineCloud implements MachineCloud {
  readonly platform = 'AWS';

  constructor(private readonly ec2: SimEc2) {}

  create(req: CloudVmRequest): CloudVm {
    const clusterId = clusterIdOf(req);
    const zone = specString(specObject(req.providerSpec, 'placement'), 'availabilityZone');
    const instance = this.ec2.addInstance({
      privateIp: req.address,
      name: req.machineName,
      ...(zone ? { zone } : {}),
      tags: {
        ...providerTags(req.providerSpec),
        ...(clusterId ? { [`kubernetes.io/cluster/${clusterId}`]: 'owned' } : {}),
        Name: req.machineName,
      },
      ...(req.userData === undefined ? {} : { userData: req.userData }),
    });
    const dns = this.ec2.privateDnsName(instance.id) ?? '';
    return {
      providerId: `aws:///${instance.zone}/${instance.id}`,
      addresses: [
        { type: 'InternalIP', address: req.address },
        { type: 'InternalDNS', address: dns },
        { type: 'Hostname', address: dns },
      ],
      computerName: ec2ComputerName(),
      metadataHostname: dns,
      bootScript: req.userData,
      metadataRoutes: ['169.254.169.254/32'],
      terminate: () => void this.ec2.state.terminate(instance.id),
    };
  }
}
