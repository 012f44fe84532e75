import {
  CloudContext,
  defineProvider,
  FirewallFacts,
  InstanceIdentity,
  InstanceTagging,
  HostnameOverride,
  MachineAccess,
  PlatformPrerequisites,
  UserDataFormat,
  type CapabilityResolver,
} from '@wmco/core/provider';
import { GcpFirewallFacts } from './gcp-firewall-facts.js';
import { gcpHostnameOverride } from './gcp-hostname-override.js';
import { GcpInstanceIdentity } from './gcp-instance-identity.js';
import { GcpInstanceTagging } from './gcp-instance-tagging.js';
import { gcpMachineAccess } from './gcp-machine-access.js';
import { gcpPlatformPrerequisites } from './gcp-platform-prerequisites.js';
import { gcpUserDataFormat } from './gcp-user-data-format.js';

/** OpenShift on Google Cloud. */
export const gcpProvider = defineProvider({
  id: 'gcp',
  platform: 'GCP',
  contractVersion: 1,
  displayName: 'Google Cloud',
  packageName: '@wmco/provider-gcp',
  register(r) {
    r.useValue(MachineAccess, gcpMachineAccess);
    r.useValue(UserDataFormat, gcpUserDataFormat);
    r.useValue(HostnameOverride, gcpHostnameOverride);
    r.useValue(PlatformPrerequisites, gcpPlatformPrerequisites);
    // The cloud capabilities read the cluster's CloudContext when called; without one they report
    // "not configured" (CloudNotConfiguredError) rather than fail to resolve.
    const ctx = (c: CapabilityResolver): CloudContext | undefined =>
      c.has(CloudContext) ? c.resolve(CloudContext) : undefined;
    r.useFactory(InstanceIdentity, (c) => new GcpInstanceIdentity(ctx(c)));
    r.useFactory(InstanceTagging, (c) => new GcpInstanceTagging(ctx(c)));
    r.useFactory(FirewallFacts, (c) => new GcpFirewallFacts(ctx(c)));
  },
});
