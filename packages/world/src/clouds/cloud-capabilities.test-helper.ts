import { newRootContainer } from '@wmco/core';
import {
  CloudContext,
  FirewallFacts,
  InstanceIdentity,
  InstanceTagging,
  registerProvider,
  type WmcoProvider,
} from '@wmco/core/provider';

export interface CloudCapabilities {
  readonly identity: InstanceIdentity;
  readonly tagging: InstanceTagging;
  readonly firewall: FirewallFacts | undefined;
}

/** Registers a provider as the operator does, with the given CloudContext, and resolves its cloud capabilities. */
export function cloudCapabilities(provider: WmcoProvider, ctx: CloudContext): CloudCapabilities {
  const container = newRootContainer();
  container.register(CloudContext, { useValue: ctx });
  registerProvider(container, provider);
  return {
    identity: container.resolve(InstanceIdentity),
    tagging: container.resolve(InstanceTagging),
    firewall: container.isRegistered(FirewallFacts, true) ? container.resolve(FirewallFacts) : undefined,
  };
}
