import type { MachineAccess } from '@wmco/core/provider';

/** Nutanix Windows images keep the built-in Administrator; the user-data script enables it for SSH. */
export const nutanixMachineAccess: MachineAccess = { sshUser: 'Administrator' };
