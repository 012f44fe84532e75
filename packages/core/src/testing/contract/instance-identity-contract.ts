import { z } from 'zod';
import { InstanceIdentity } from '../../provider/capabilities/instance-identity.js';
import { assertShape } from './assertions.js';
import { capabilityContract } from './capability-contract.js';
import { rejectsNotConfigured } from './cloud-checks.js';

const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', 'a function');

export const instanceIdentityContract = capabilityContract<InstanceIdentity>({
  capability: InstanceIdentity,
  name: 'InstanceIdentity',
  checks: [
    { name: 'shape', run: (t, identity) => assertShape(t, z.object({ identify: fn }), identity) },
    {
      name: 'without a CloudContext, identify rejects with CloudNotConfiguredError',
      run: (t, identity) => rejectsNotConfigured(t, () => identity.identify('10.0.0.10')),
    },
  ],
});
