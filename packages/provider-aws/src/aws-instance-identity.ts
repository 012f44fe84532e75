import type { EC2Client, Instance } from '@aws-sdk/client-ec2';
import type { CloudContext, CloudInstance, InstanceIdentity } from '@wmco/core/provider';
import { ec2ClientFor } from './aws-cloud-access.js';
import { awsCall } from './aws-errors.js';
import { ec2Sdk } from './aws-sdk.js';

/** EC2 states in which an instance still holds its private address. */
const LIVE_STATES = ['pending', 'running', 'stopping', 'stopped'];

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

/** Finds the EC2 instance behind a BYOH address by its private IP (`private-ip-address` filter). */
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
      const found = out.Reservations?.flatMap((r) => r.Instances ?? []) ?? [];
      return found[0] ? toCloudInstance(found[0]) : undefined;
    } finally {
      ec2.destroy();
    }
  }
}
