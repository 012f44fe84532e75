import { token } from '../token.js';
import type { CloudInstance } from './instance-identity.js';

/**
 * `check` only reports the ownership tag; `apply` adds it as `shared` when missing (the cluster uses the
 * instance, `openshift-install destroy` leaves it); `apply-owned` adds it as `owned` (destroy deletes the
 * instance with the cluster). Since contract v1: `apply` meant `owned` before `apply-owned` was added.
 */
export type TagMode = 'check' | 'apply' | 'apply-owned';

/** The value `mode` applies: `owned` only when asked for by `apply-owned`. */
export function ownershipValue(mode: TagMode): 'shared' | 'owned' {
  return mode === 'apply-owned' ? 'owned' : 'shared';
}

/** One tag or label. */
export interface CloudTag {
  readonly key: string;
  readonly value: string;
}

export interface TagResult {
  readonly instanceId: string;
  /**
   * The cluster ownership tag for this cluster (`kubernetes.io/cluster/<infraID>` or the platform's
   * equivalent) with the value the instance carries (`present`), was given (`applied`) or would be given.
   */
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
  /**
   * The ownership tag this cluster uses on this platform (no I/O), with the value `mode` applies (default
   * `apply`: `shared`).
   */
  ownershipTag(infrastructureName: string, mode?: TagMode): CloudTag;
  /**
   * Reports the tag, and in an apply mode adds it with `ownershipValue(mode)` when the key is absent. A key
   * already carrying `owned` or `shared` is `present` and left as it is: an instance the installer or the
   * Machine API tagged `owned` stays `owned`, and `shared` is never raised to `owned` behind the admin's back.
   */
  ensureTag(instance: CloudInstance, mode: TagMode): Promise<TagResult>;
  /**
   * Removes the given tags, each only while the instance still carries it with the same value; the caller
   * passes back only what `ensureTag` reported as `applied`. Resolves with the keys it removed.
   */
  removeTags(instance: CloudInstance, tags: readonly CloudTag[]): Promise<readonly string[]>;
}
export const InstanceTagging = token<InstanceTagging>('platform.instance-tagging');
