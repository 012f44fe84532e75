import type { MachineAccess } from '@wmco/core/provider';

/** GCE Windows images have the built-in Administrator; the user-data script enables it for SSH. */
export const gcpMachineAccess: MachineAccess = { sshUser: 'Administrator' };
