import type { EC2Client, Instance } from '@aws-sdk/client-ec2';
import { CloudNotConfiguredError } from '@wmco/core/provider';
import { awsCall } from './aws-errors.js';
import { ec2Sdk } from './aws-sdk.js';

/** EC2 states in which an instance still holds its private address (and its VPC). */
export const LIVE_STATES = ['pending', 'running', 'stopping', 'stopped'];

/**
 * The one VPC the cluster's own instances are in. `infrastructure/cluster` does not carry the VPC on AWS
 * (`AWSPlatformStatus` has region, service endpoints and tags only), so it is read from the cloud, from
 * the instances tagged `kubernetes.io/cluster/<infraID>=owned`: the installer tags its control plane so,
 * and the Machine API every Machine's instance. Those instances in several VPCs, or none, cannot say.
 */
export function pickClusterVpc(instances: readonly Instance[], infrastructureName: string): string {
  const vpcs = [...new Set(instances.flatMap((i) => i.VpcId ?? []))].sort();
  const tag = `kubernetes.io/cluster/${infrastructureName}=owned`;
  if (vpcs.length === 1) return vpcs[0]!;
  if (vpcs.length === 0)
    throw new CloudNotConfiguredError(
      'aws',
      `cannot tell the cluster's VPC: no instance in a VPC is tagged ${tag}`,
    );
  throw new CloudNotConfiguredError(
    'aws',
    `cannot tell the cluster's VPC: instances tagged ${tag} are in ${vpcs.join(', ')}`,
  );
}

/** Reads the cluster's VPC through DescribeInstances (filters `tag:<key>` and `instance-state-name`). */
export async function clusterVpc(ec2: EC2Client, infrastructureName: string): Promise<string> {
  if (infrastructureName === '')
    throw new CloudNotConfiguredError('aws', 'infrastructure/cluster has no status.infrastructureName');
  const { DescribeInstancesCommand } = await ec2Sdk();
  const out = await awsCall('DescribeInstances', () =>
    ec2.send(
      new DescribeInstancesCommand({
        Filters: [
          { Name: `tag:kubernetes.io/cluster/${infrastructureName}`, Values: ['owned'] },
          { Name: 'instance-state-name', Values: LIVE_STATES },
        ],
      }),
    ),
  );
  return pickClusterVpc(out.Reservations?.flatMap((r) => r.Instances ?? []) ?? [], infrastructureName);
}
