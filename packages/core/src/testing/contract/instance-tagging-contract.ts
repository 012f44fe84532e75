import { z } from 'zod';
import { InstanceTagging } from '../../provider/capabilities/instance-tagging.js';
import { assertShape } from './assertions.js';
import { capabilityContract } from './capability-contract.js';

const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', 'a function');

// Instance tagging talks to a cloud API, so the suite checks only its shape; its behaviour belongs to the
// provider's own tests against a fake of that API.
export const instanceTaggingContract = capabilityContract<InstanceTagging>({
  capability: InstanceTagging,
  name: 'InstanceTagging',
  checks: [
    {
      name: 'shape',
      run: (t, tagging) => assertShape(t, z.object({ inspect: fn, ensureTagged: fn }), tagging),
    },
  ],
});
