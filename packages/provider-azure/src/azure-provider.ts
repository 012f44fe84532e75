import {
  CloudContext,
  CloudNodeManager,
  defineProvider,
  InstanceIdentity,
  InstanceTagging,
  MachineAccess,
  PlatformPrerequisites,
  UserDataFormat,
  type CapabilityResolver,
} from '@wmco/core/provider';
import { azureCloudNodeManager } from './azure-cloud-node-manager.js';
import { AzureInstanceIdentity } from './azure-instance-identity.js';
import { AzureInstanceTagging } from './azure-instance-tagging.js';
import { azureMachineAccess } from './azure-machine-access.js';
import { azurePlatformPrerequisites } from './azure-platform-prerequisites.js';
import { azureUserDataFormat } from './azure-user-data-format.js';

/** OpenShift on Microsoft Azure. */
export const azureProvider = defineProvider({
  id: 'azure',
  platform: 'Azure',
  contractVersion: 1,
  displayName: 'Microsoft Azure',
  packageName: '@wmco/provider-azure',
  register(r) {
    r.useValue(MachineAccess, azureMachineAccess);
    r.useValue(UserDataFormat, azureUserDataFormat);
    r.useValue(CloudNodeManager, azureCloudNodeManager);
    r.useValue(PlatformPrerequisites, azurePlatformPrerequisites);
    // The cloud capabilities read the cluster's CloudContext when called; without one they report
    // "not configured" (CloudNotConfiguredError). No FirewallFacts: network security groups are read
    // through @azure/arm-network, which the brief does not name.
    const ctx = (c: CapabilityResolver): CloudContext | undefined =>
      c.has(CloudContext) ? c.resolve(CloudContext) : undefined;
    r.useFactory(InstanceIdentity, (c) => new AzureInstanceIdentity(ctx(c)));
    r.useFactory(InstanceTagging, (c) => new AzureInstanceTagging(ctx(c)));
  },
});
