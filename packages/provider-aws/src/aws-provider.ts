import {
  CloudContext,
  defineProvider,
  FirewallFacts,
  InstanceIdentity,
  InstanceTagging,
  HostnameOverride,
  ImageCredentialProvider,
  MachineAccess,
  MetadataRoutes,
  PlatformPrerequisites,
  UserDataFormat,
  type CapabilityResolver,
} from '@wmco/core/provider';
import { AwsFirewallFacts } from './aws-firewall-facts.js';
import { awsHostnameOverride } from './aws-hostname-override.js';
import { awsImageCredentialProvider } from './aws-image-credential-provider.js';
import { AwsInstanceIdentity } from './aws-instance-identity.js';
import { AwsInstanceTagging } from './aws-instance-tagging.js';
import { awsMachineAccess } from './aws-machine-access.js';
import { awsMetadataRoutes } from './aws-metadata-routes.js';
import { awsPlatformPrerequisites } from './aws-platform-prerequisites.js';
import { awsUserDataFormat } from './aws-user-data-format.js';

/** OpenShift on Amazon Web Services. */
export const awsProvider = defineProvider({
  id: 'aws',
  platform: 'AWS',
  contractVersion: 1,
  displayName: 'Amazon Web Services',
  packageName: '@wmco/provider-aws',
  register(r) {
    r.useValue(MachineAccess, awsMachineAccess);
    r.useValue(UserDataFormat, awsUserDataFormat);
    r.useValue(HostnameOverride, awsHostnameOverride);
    r.useValue(ImageCredentialProvider, awsImageCredentialProvider);
    r.useValue(MetadataRoutes, awsMetadataRoutes);
    r.useValue(PlatformPrerequisites, awsPlatformPrerequisites);
    // The cloud capabilities read the cluster's CloudContext when called; without one they report
    // "not configured" (CloudNotConfiguredError) rather than fail to resolve.
    const ctx = (c: CapabilityResolver): CloudContext | undefined =>
      c.has(CloudContext) ? c.resolve(CloudContext) : undefined;
    r.useFactory(InstanceIdentity, (c) => new AwsInstanceIdentity(ctx(c)));
    r.useFactory(InstanceTagging, (c) => new AwsInstanceTagging(ctx(c)));
    r.useFactory(FirewallFacts, (c) => new AwsFirewallFacts(ctx(c)));
  },
});
