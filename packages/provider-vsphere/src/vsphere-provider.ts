import {
  defineProvider,
  HostnameOverride,
  HostRename,
  MachineAccess,
  PlatformPrerequisites,
  UserDataFormat,
} from '@wmco/core/provider';
import { vsphereHostRename } from './vsphere-host-rename.js';
import { vsphereHostnameOverride } from './vsphere-hostname-override.js';
import { vsphereMachineAccess } from './vsphere-machine-access.js';
import { vspherePlatformPrerequisites } from './vsphere-platform-prerequisites.js';
import { vsphereUserDataFormat } from './vsphere-user-data-format.js';

/** OpenShift on VMware vSphere. */
export const vsphereProvider = defineProvider({
  id: 'vsphere',
  platform: 'VSphere',
  contractVersion: 1,
  displayName: 'VMware vSphere',
  packageName: '@wmco/provider-vsphere',
  register(r) {
    r.useValue(MachineAccess, vsphereMachineAccess);
    r.useValue(UserDataFormat, vsphereUserDataFormat);
    r.useValue(HostnameOverride, vsphereHostnameOverride);
    r.useValue(HostRename, vsphereHostRename);
    r.useValue(PlatformPrerequisites, vspherePlatformPrerequisites);
  },
});
