import { z } from 'zod';
import { MachineAccess } from '../../provider/capabilities/machine-access.js';
import { assertShape, plain } from './assertions.js';
import { capabilityContract } from './capability-contract.js';

// A Windows local account name: at most 20 characters, none of the characters Windows forbids.
const schema = z.object({
  sshUser: z.string().regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,19}$/, 'a Windows local user name (<= 20 chars)'),
});

export const machineAccessContract = capabilityContract<MachineAccess>({
  capability: MachineAccess,
  name: 'MachineAccess',
  snapshot: (access) => plain({ sshUser: access.sshUser }),
  checks: [{ name: 'shape', run: (t, access) => assertShape(t, schema, access) }],
});
