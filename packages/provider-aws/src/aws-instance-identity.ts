import type { EC2Client, Instance } from '@aws-sdk/client-ec2';
import {
  pickInClusterNetwork,
  type CloudContext,
  type CloudInstance,
  type InstanceIdentity,
} from '@wmco/core/provider';
import { ec2ClientFor } from './aws-cloud-access.js';
import { clusterVpc, LIVE_STATES } from './aws-cluster-vpc.js';
import { awsCall } from './aws-errors.js';
import { ec2Sdk } from './aws-sdk.js';

export function toCloudInstance(i: Instance): CloudInstance {
  const zone = i.Placement?.AvailabilityZone ?? '';
  const id = i.InstanceId ?? '';
  return {
    instanceId: id,
    name: id,
    // The AWS cloud provider's provider ID: aws:///<zone>/<instance id>.
    providerId: `aws:///${zone}/${id}`,
    zone,
    privateIp: i.PrivateIpAddress ?? '',
    privateDnsName: i.PrivateDnsName ?? '',
    tags: Object.fromEntries((i.Tags ?? []).map((t) => [t.Key ?? '', t.Value ?? ''])),
    ...(i.VpcId ? { network: i.VpcId } : {}),
  };
}

/** Reads one instance by id, fresh (tags change under us). */
export async function describeInstance(ec2: EC2Client, instanceId: string): Promise<Instance | undefined> {
  const { DescribeInstancesCommand } = await ec2Sdk();
  const out = await awsCall('DescribeInstances', () =>
    ec2.send(new DescribeInstancesCommand({ InstanceIds: [instanceId] })),
  );
  return out.Reservations?.flatMap((r) => r.Instances ?? [])[0];
}

/**
 * Finds the EC2 instance behind a BYOH address by its private IP (`private-ip-address` filter), in the
 * cluster's VPC only: VPCs may use the same private ranges, so an instance with the address in another VPC
 * (another cluster's, a peered network's) is refused, never taken for the host.
 */
export class AwsInstanceIdentity implements InstanceIdentity {
  constructor(private readonly ctx: CloudContext | undefined) {}

  async identify(address: string): Promise<CloudInstance | undefined> {
    const ec2 = await ec2ClientFor(this.ctx);
    const { DescribeInstancesCommand } = await ec2Sdk();
    try {
      const out = await awsCall('DescribeInstances', () =>
        ec2.send(
          new DescribeInstancesCommand({
            Filters: [
              { Name: 'private-ip-address', Values: [address] },
              { Name: 'instance-state-name', Values: LIVE_STATES },
            ],
          }),
        ),
      );
      const found = (out.Reservations?.flatMap((r) => r.Instances ?? []) ?? []).map(toCloudInstance);
      if (found.length === 0) return undefined;
      const vpc = await clusterVpc(ec2, this.ctx?.infrastructureName ?? '');
      return pickInClusterNetwork('aws', address, found, vpc);
    } finally {
      ec2.destroy();
    }
  }
}
