import { token } from '../token.js';
import type { CloudInstance } from './instance-identity.js';

/** `check` only reports the ownership tag; `apply` adds it when missing. */
export type TagMode = 'check' | 'apply';

/** One tag or label. */
export interface CloudTag {
  readonly key: string;
  readonly value: string;
}

export interface TagResult {
  readonly instanceId: string;
  /** The cluster ownership tag for this cluster (`kubernetes.io/cluster/<infraID>=owned` or equivalent). */
  readonly tag: CloudTag;
  /** `present`: the instance already carried it; `applied`: this call added it; `missing`: check mode, absent. */
  readonly state: 'present' | 'applied' | 'missing';
}

/**
 * Checks and applies the cluster ownership tag the platform's Kubernetes cloud provider and OpenShift's
 * installer use, on BYOH instances, through the cloud SDK. Rejects like `InstanceIdentity.identify`.
 *
 * Changed in contract v1 (before any implementation existed): `ensureTag`/`removeTags` replace
 * `inspect`/`ensureTagged`.
 */
export interface InstanceTagging {
  /** The ownership tag this cluster uses on this platform (no I/O). */
  ownershipTag(infrastructureName: string): CloudTag;
  ensureTag(instance: CloudInstance, mode: TagMode): Promise<TagResult>;
  /**
   * Removes the given tags, each only while the instance still carries it with the same value; the caller
   * passes back only what `ensureTag` reported as `applied`. Resolves with the keys it removed.
   */
  removeTags(instance: CloudInstance, tags: readonly CloudTag[]): Promise<readonly string[]>;
}
export const InstanceTagging = token<InstanceTagging>('platform.instance-tagging');
