import {
  defineProvider,
  HostRename,
  MachineAccess,
  PlatformPrerequisites,
  UserDataFormat,
} from '@wmco/core/provider';
import { nutanixHostRename } from './nutanix-host-rename.js';
import { nutanixMachineAccess } from './nutanix-machine-access.js';
import { nutanixPlatformPrerequisites } from './nutanix-platform-prerequisites.js';
import { nutanixUserDataFormat } from './nutanix-user-data-format.js';

/** OpenShift on Nutanix AHV. */
export const nutanixProvider = defineProvider({
  id: 'nutanix',
  platform: 'Nutanix',
  contractVersion: 1,
  displayName: 'Nutanix AHV',
  packageName: '@wmco/provider-nutanix',
  register(r) {
    r.useValue(MachineAccess, nutanixMachineAccess);
    r.useValue(UserDataFormat, nutanixUserDataFormat);
    r.useValue(HostRename, nutanixHostRename);
    r.useValue(PlatformPrerequisites, nutanixPlatformPrerequisites);
  },
});
