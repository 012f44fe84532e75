import type { MachineAccess } from '@wmco/core/provider';

/** The Azure Windows images used by the machine-api provision a `capi` user for SSH. */
export const azureMachineAccess: MachineAccess = { sshUser: 'capi' };
