import {
  CloudNodeManager,
  defineProvider,
  MachineAccess,
  PlatformPrerequisites,
  UserDataFormat,
} from '@wmco/core/provider';
import { azureCloudNodeManager } from './azure-cloud-node-manager.js';
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
  },
});
