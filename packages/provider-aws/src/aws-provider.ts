import {
  defineProvider,
  HostnameOverride,
  ImageCredentialProvider,
  MachineAccess,
  MetadataRoutes,
  PlatformPrerequisites,
  UserDataFormat,
} from '@wmco/core/provider';
import { awsHostnameOverride } from './aws-hostname-override.js';
import { awsImageCredentialProvider } from './aws-image-credential-provider.js';
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
  },
});
