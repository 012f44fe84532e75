import { token } from '../token.js';

/** How the operator logs in to Windows hosts created from Machines (BYOH users come from the ConfigMap). */
export interface MachineAccess {
  /** The local user the platform's image provisions for SSH: `capi` on Azure, `Administrator` elsewhere. */
  readonly sshUser: string;
}
export const MachineAccess = token<MachineAccess>('platform.machine-access');
