import type { MachineAccess } from '@wmco/core/provider';

/** Windows AMIs on AWS provision the built-in Administrator; the user-data script enables it for SSH. */
export const awsMachineAccess: MachineAccess = { sshUser: 'Administrator' };
