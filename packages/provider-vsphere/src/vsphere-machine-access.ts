import type { MachineAccess } from '@wmco/core/provider';

/** vSphere Windows templates keep the built-in Administrator; the user-data script enables it for SSH. */
export const vsphereMachineAccess: MachineAccess = { sshUser: 'Administrator' };
