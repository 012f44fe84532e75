import { defineProvider, MachineAccess, PlatformPrerequisites, UserDataFormat } from '@wmco/core/provider';
import { kubevirtMachineAccess } from './kubevirt-machine-access.js';
import { kubevirtPlatformPrerequisites } from './kubevirt-platform-prerequisites.js';
import { kubevirtUserDataFormat } from './kubevirt-user-data-format.js';

/** Windows VMs on KubeVirt / OpenShift Virtualization: an example of a third-party provider. */
export const kubevirtProvider = defineProvider({
  id: 'kubevirt',
  platform: 'KubeVirt',
  contractVersion: '^1.0.0',
  displayName: 'KubeVirt / OpenShift Virtualization (example)',
  packageName: '@wmco/provider-kubevirt-example',
  register(r) {
    r.useValue(MachineAccess, kubevirtMachineAccess);
    r.useValue(UserDataFormat, kubevirtUserDataFormat);
    r.useValue(PlatformPrerequisites, kubevirtPlatformPrerequisites);
  },
});
