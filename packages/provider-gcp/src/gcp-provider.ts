import {
  defineProvider,
  HostnameOverride,
  MachineAccess,
  PlatformPrerequisites,
  UserDataFormat,
} from '@wmco/core/provider';
import { gcpHostnameOverride } from './gcp-hostname-override.js';
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
  },
});
