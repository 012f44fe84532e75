import {
  CloudApiError,
  ownershipValue,
  type CloudContext,
  type CloudInstance,
  type CloudTag,
  type InstanceTagging,
  type TagMode,
  type TagResult,
} from '@wmco/core/provider';
import { gcpClientsFor, type GcpClients } from './gcp-cloud-access.js';
import { gcpCall } from './gcp-errors.js';
import { getInstance } from './gcp-instance-identity.js';

/**
 * The GCP cluster ownership label: `kubernetes-io-cluster-<infraID>`. GCE labels allow no `/` or `.`, so
 * the OpenShift installer writes this form on every GCP resource it creates (installer GCP labels:
 * `userLabels[fmt.Sprintf("kubernetes-io-cluster-%s", infraID)] = "owned"`), and the machine API's GCP
 * provider adds the same label to machines. The installer's destroy deletes instances by name prefix and
 * other resources labelled `owned`, and treats `shared` as the cluster's but not its own; a BYOH instance
 * the user owns is labelled `shared` unless the admin asks for `owned`.
 */
export function gcpOwnershipLabel(infrastructureName: string, mode: TagMode = 'apply'): CloudTag {
  return { key: `kubernetes-io-cluster-${infrastructureName}`, value: ownershipValue(mode) };
}

type LabelChange = (labels: Record<string, string>) => Record<string, string> | undefined;

/**
 * setLabels replaces the whole label map and is guarded by the label fingerprint. One read-modify-write
 * round; when another writer got in between (412 conditionNotMet, FAILED_PRECONDITION), read and try once more.
 */
async function updateLabels(c: GcpClients, instance: CloudInstance, change: LabelChange): Promise<boolean> {
  for (let attempt = 0; ; attempt += 1) {
    const fresh = await getInstance(c, instance);
    const next = change({ ...(fresh.labels ?? {}) });
    if (!next) return false;
    try {
      await setLabels(c, instance, next, fresh.labelFingerprint ?? '');
      return true;
    } catch (error) {
      if (!(error instanceof CloudApiError && error.kind === 'conflict' && attempt === 0)) throw error;
    }
  }
}

async function setLabels(
  c: GcpClients,
  instance: CloudInstance,
  labels: Record<string, string>,
  labelFingerprint: string,
): Promise<void> {
  const base = { project: c.project, zone: instance.zone };
  const [op] = await gcpCall('instances.setLabels', () =>
    c.instances.setLabels(
      { ...base, instance: instance.name, instancesSetLabelsRequestResource: { labels, labelFingerprint } },
      c.call,
    ),
  );
  // A zonal operation: wait on it until DONE, then surface its error, if any.
  let current = op.latestResponse as { name?: string | null; status?: unknown; error?: unknown };
  for (let polls = 0; current.status !== 'DONE' && polls < 30; polls += 1) {
    [current] = await gcpCall('zoneOperations.wait', () =>
      c.operations.wait({ ...base, operation: current.name ?? '' }, c.call),
    );
  }
  if (current.status !== 'DONE' || current.error)
    throw new CloudApiError('gcp', {
      operation: 'instances.setLabels',
      cloudCode: 'OperationFailed',
      kind: 'other',
      detail: JSON.stringify(current.error ?? { status: current.status }),
    });
}

/** Checks, applies and takes back the ownership label through compute v1 setLabels. */
export class GcpInstanceTagging implements InstanceTagging {
  constructor(private readonly ctx: CloudContext | undefined) {}

  ownershipTag(infrastructureName: string, mode?: TagMode): CloudTag {
    return gcpOwnershipLabel(infrastructureName, mode);
  }

  async ensureTag(instance: CloudInstance, mode: TagMode): Promise<TagResult> {
    const c = await gcpClientsFor(this.ctx);
    try {
      const tag = gcpOwnershipLabel(this.ctx?.infrastructureName ?? '', mode);
      let state: TagResult['state'] = 'present';
      let value = tag.value;
      await updateLabels(c, instance, (labels) => {
        // Decided anew on each read: a retried round may find the label another writer set meanwhile.
        const current = labels[tag.key];
        value = current === 'owned' || current === 'shared' ? current : tag.value;
        state = 'present';
        if (value === current) return undefined;
        state = mode === 'check' ? 'missing' : 'applied';
        return mode === 'check' ? undefined : { ...labels, [tag.key]: tag.value };
      });
      return { instanceId: instance.instanceId, tag: { key: tag.key, value }, state };
    } finally {
      await c.close();
    }
  }

  async removeTags(instance: CloudInstance, tags: readonly CloudTag[]): Promise<readonly string[]> {
    const c = await gcpClientsFor(this.ctx);
    try {
      let removed: string[] = [];
      await updateLabels(c, instance, (labels) => {
        removed = tags.filter((t) => labels[t.key] === t.value).map((t) => t.key);
        if (removed.length === 0) return undefined;
        return Object.fromEntries(Object.entries(labels).filter(([k]) => !removed.includes(k)));
      });
      return removed;
    } finally {
      await c.close();
    }
  }
}
