import { token } from '../token.js';

/** A cloud instance found behind a Windows host's address. */
export interface TaggableInstance {
  /** The host address as listed in `windows-instances`. */
  readonly address: string;
  /** The cluster's infrastructure name (`infrastructure/cluster .status.infrastructureName`). */
  readonly infrastructureName: string;
}

export interface TagState {
  /** The cloud's id of the instance (EC2 instance id, Azure VM resource id, GCE instance self-link). */
  readonly instanceId: string;
  /** True when the instance already carries the cluster ownership tag. */
  readonly tagged: boolean;
}

/**
 * Checks and applies the cluster ownership tag (`kubernetes.io/cluster/<infra>=owned` or the platform's
 * equivalent) on BYOH instances through the cloud SDK. Declared in contract version 1; the first-party
 * SDK implementations arrive in a later release, so no first-party provider registers it yet.
 */
export interface InstanceTagging {
  inspect(instance: TaggableInstance): Promise<TagState>;
  ensureTagged(instance: TaggableInstance): Promise<TagState>;
}
export const InstanceTagging = token<InstanceTagging>('platform.instance-tagging');
