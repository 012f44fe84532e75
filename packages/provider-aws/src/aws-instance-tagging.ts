import {
  ownershipValue,
  type CloudContext,
  type CloudInstance,
  type CloudTag,
  type InstanceTagging,
  type TagMode,
  type TagResult,
} from '@wmco/core/provider';
import { ec2ClientFor } from './aws-cloud-access.js';
import { awsCall } from './aws-errors.js';
import { describeInstance, toCloudInstance } from './aws-instance-identity.js';
import { ec2Sdk } from './aws-sdk.js';

/**
 * The AWS cluster ownership tag: `kubernetes.io/cluster/<infraID>`, the key the OpenShift installer tags
 * every instance it creates with (value `owned`) and the AWS cloud provider (k8s.io/cloud-provider-aws,
 * `TagNameKubernetesClusterPrefix`, `ResourceLifecycleOwned`/`ResourceLifecycleShared`) reads. Either value
 * counts as present. `openshift-install destroy` deletes what is `owned` and only removes the tag from what
 * is `shared`, so a BYOH instance the user owns is tagged `shared` unless the admin asks for `owned`.
 */
export function awsOwnershipTag(infrastructureName: string, mode: TagMode = 'apply'): CloudTag {
  return { key: `kubernetes.io/cluster/${infrastructureName}`, value: ownershipValue(mode) };
}

const OWNING_VALUES = new Set(['owned', 'shared']);

/** Checks, applies and takes back the ownership tag through EC2 CreateTags/DeleteTags. */
export class AwsInstanceTagging implements InstanceTagging {
  constructor(private readonly ctx: CloudContext | undefined) {}

  ownershipTag(infrastructureName: string, mode?: TagMode): CloudTag {
    return awsOwnershipTag(infrastructureName, mode);
  }

  async ensureTag(instance: CloudInstance, mode: TagMode): Promise<TagResult> {
    const ec2 = await ec2ClientFor(this.ctx);
    try {
      const tag = awsOwnershipTag(this.ctx?.infrastructureName ?? '', mode);
      const fresh = await describeInstance(ec2, instance.instanceId);
      const current = fresh ? toCloudInstance(fresh).tags[tag.key] : instance.tags[tag.key];
      if (current !== undefined && OWNING_VALUES.has(current))
        return { instanceId: instance.instanceId, tag: { key: tag.key, value: current }, state: 'present' };
      if (mode === 'check') return { instanceId: instance.instanceId, tag, state: 'missing' };
      const { CreateTagsCommand } = await ec2Sdk();
      await awsCall('CreateTags', () =>
        ec2.send(
          new CreateTagsCommand({
            Resources: [instance.instanceId],
            Tags: [{ Key: tag.key, Value: tag.value }],
          }),
        ),
      );
      return { instanceId: instance.instanceId, tag, state: 'applied' };
    } finally {
      ec2.destroy();
    }
  }

  async removeTags(instance: CloudInstance, tags: readonly CloudTag[]): Promise<readonly string[]> {
    const ec2 = await ec2ClientFor(this.ctx);
    try {
      const fresh = await describeInstance(ec2, instance.instanceId);
      const current = fresh ? toCloudInstance(fresh).tags : {};
      // Only tags still carrying the value the operator set; EC2 DeleteTags with a value is conditional too.
      const ours = tags.filter((t) => current[t.key] === t.value);
      if (ours.length === 0) return [];
      const { DeleteTagsCommand } = await ec2Sdk();
      await awsCall('DeleteTags', () =>
        ec2.send(
          new DeleteTagsCommand({
            Resources: [instance.instanceId],
            Tags: ours.map((t) => ({ Key: t.key, Value: t.value })),
          }),
        ),
      );
      return ours.map((t) => t.key);
    } finally {
      ec2.destroy();
    }
  }
}
