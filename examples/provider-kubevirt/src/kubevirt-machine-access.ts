import type { MachineAccess } from '@wmco/core/provider';

/**
 * Windows VM images for KubeVirt are usually built from the Windows Server media with cloudbase-init;
 * the built-in Administrator is the account the user-data script enables for SSH.
 */
export const kubevirtMachineAccess: MachineAccess = { sshUser: 'Administrator' };
