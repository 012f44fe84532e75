import {
  ownershipValue,
  type CloudContext,
  type CloudInstance,
  type CloudTag,
  type InstanceTagging,
  type TagMode,
  type TagResult,
} from '@wmco/core/provider';
import { azureClientsFor, type AzureClients } from './azure-cloud-access.js';
import { azureCall } from './azure-errors.js';
import { getVm } from './azure-instance-identity.js';

/**
 * The Azure cluster ownership tag: `kubernetes.io_cluster.<infraID>`. Azure tag names may not contain
 * `/`, so the OpenShift installer writes this form, value `owned`, on the resource group and every
 * resource it creates (installer Azure: `tags[fmt.Sprintf("kubernetes.io_cluster.%s", infraID)] = "owned"`).
 * Its destroy removes the tag from resources tagged `shared`; a BYOH VM the user owns is tagged `shared`
 * unless the admin asks for `owned`. (Destroy deletes the installer's resource group as a whole, whatever
 * the tags of the VMs in it.)
 */
export function azureOwnershipTag(infrastructureName: string, mode: TagMode = 'apply'): CloudTag {
  return { key: `kubernetes.io_cluster.${infrastructureName}`, value: ownershipValue(mode) };
}

/** ARM PATCH replaces the whole tag map; waits on the Azure-AsyncOperation until it succeeds. */
async function setTags(c: AzureClients, name: string, tags: Record<string, string>): Promise<void> {
  await azureCall('virtualMachines.update', () =>
    c.compute.virtualMachines.beginUpdateAndWait(
      c.resourceGroup,
      name,
      { tags },
      { updateIntervalInMs: 500 },
    ),
  );
}

/** Checks, applies and takes back the ownership tag on the VM through ARM. */
export class AzureInstanceTagging implements InstanceTagging {
  constructor(private readonly ctx: CloudContext | undefined) {}

  ownershipTag(infrastructureName: string, mode?: TagMode): CloudTag {
    return azureOwnershipTag(infrastructureName, mode);
  }

  async ensureTag(instance: CloudInstance, mode: TagMode): Promise<TagResult> {
    const c = await azureClientsFor(this.ctx);
    const tag = azureOwnershipTag(this.ctx?.infrastructureName ?? '', mode);
    const tags = { ...((await getVm(c, instance.name)).tags ?? {}) };
    const current = tags[tag.key];
    if (current === 'owned' || current === 'shared')
      return { instanceId: instance.instanceId, tag: { key: tag.key, value: current }, state: 'present' };
    if (mode === 'check') return { instanceId: instance.instanceId, tag, state: 'missing' };
    await setTags(c, instance.name, { ...tags, [tag.key]: tag.value });
    return { instanceId: instance.instanceId, tag, state: 'applied' };
  }

  async removeTags(instance: CloudInstance, tags: readonly CloudTag[]): Promise<readonly string[]> {
    const c = await azureClientsFor(this.ctx);
    const current = { ...((await getVm(c, instance.name)).tags ?? {}) };
    const ours = tags.filter((t) => current[t.key] === t.value).map((t) => t.key);
    if (ours.length === 0) return [];
    await setTags(
      c,
      instance.name,
      Object.fromEntries(Object.entries(current).filter(([k]) => !ours.includes(k))),
    );
    return ours;
  }
}
