import type { EC2Client, IpPermission, SecurityGroup } from '@aws-sdk/client-ec2';
import type { CloudContext, CloudInstance, FirewallFacts, PortReach } from '@wmco/core/provider';
import { ec2ClientFor } from './aws-cloud-access.js';
import { awsCall } from './aws-errors.js';
import { ec2Sdk } from './aws-sdk.js';
import { describeInstance } from './aws-instance-identity.js';
import { awsOwnershipTag } from './aws-instance-tagging.js';

interface Wanted {
  readonly port: number;
  readonly protocol: 'tcp' | 'udp';
  readonly purpose: string;
}

function covers(p: IpPermission, want: Wanted): boolean {
  if (p.IpProtocol === '-1') return true;
  return p.IpProtocol === want.protocol && (p.FromPort ?? 0) <= want.port && want.port <= (p.ToPort ?? -1);
}

async function groups(ec2: EC2Client, ids: readonly string[]): Promise<SecurityGroup[]> {
  if (ids.length === 0) return [];
  const { DescribeSecurityGroupsCommand } = await ec2Sdk();
  const out = await awsCall('DescribeSecurityGroups', () =>
    ec2.send(new DescribeSecurityGroupsCommand({ GroupIds: [...ids] })),
  );
  return out.SecurityGroups ?? [];
}

/** Which source of a rule counts as "the cluster's nodes": a group the installer tagged for this cluster, or a CIDR. */
function sourceOf(p: IpPermission, clusterGroups: ReadonlySet<string>): string | undefined {
  const group = (p.UserIdGroupPairs ?? []).find((g) => g.GroupId && clusterGroups.has(g.GroupId));
  if (group?.GroupId) return `from cluster group ${group.GroupId}`;
  const cidr = p.IpRanges?.[0]?.CidrIp;
  return cidr ? `from ${cidr}` : undefined;
}

/**
 * Reads the instance's security groups: does an ingress rule let the cluster's nodes (security groups
 * tagged `kubernetes.io/cluster/<infraID>`, or a CIDR) reach the kubelet, windows_exporter and VXLAN?
 */
export class AwsFirewallFacts implements FirewallFacts {
  constructor(private readonly ctx: CloudContext | undefined) {}

  async inspect(instance: CloudInstance, vxlanPort: number): Promise<readonly PortReach[]> {
    const ec2 = await ec2ClientFor(this.ctx);
    try {
      const ids =
        (await describeInstance(ec2, instance.instanceId))?.SecurityGroups?.map((g) => g.GroupId ?? '') ?? [];
      const own = await groups(ec2, ids);
      const permissions = own.flatMap((g) =>
        (g.IpPermissions ?? []).map((p) => ({ group: g.GroupId ?? '', p })),
      );
      const sources = [
        ...new Set(permissions.flatMap(({ p }) => (p.UserIdGroupPairs ?? []).map((g) => g.GroupId ?? ''))),
      ];
      const tagKey = awsOwnershipTag(this.ctx?.infrastructureName ?? '').key;
      const cluster = new Set(
        (await groups(ec2, sources))
          .filter((g) => g.Tags?.some((t) => t.Key === tagKey))
          .map((g) => g.GroupId ?? ''),
      );
      const wanted: Wanted[] = [
        { port: 10250, protocol: 'tcp', purpose: 'kubelet' },
        { port: 9182, protocol: 'tcp', purpose: 'windows_exporter' },
        { port: vxlanPort, protocol: 'udp', purpose: 'vxlan' },
      ];
      return wanted.map((w) => {
        const hit = permissions
          .filter(({ p }) => covers(p, w))
          .map(({ group, p }) => ({ group, source: sourceOf(p, cluster) }))
          .find((h) => h.source !== undefined);
        const detail = hit
          ? `${hit.group} ${hit.source ?? ''}`
          : `no ingress rule in ${ids.join(', ') || 'no group'} admits the cluster's nodes`;
        return { ...w, allowed: hit !== undefined, detail };
      });
    } finally {
      ec2.destroy();
    }
  }
}
