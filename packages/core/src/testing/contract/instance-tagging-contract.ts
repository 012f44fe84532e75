import { z } from 'zod';
import { InstanceTagging } from '../../provider/capabilities/instance-tagging.js';
import { assertShape } from './assertions.js';
import { capabilityContract } from './capability-contract.js';
import { CONTRACT_INSTANCE, rejectsNotConfigured } from './cloud-checks.js';

const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', 'a function');

// Instance tagging talks to a cloud API, so the suite checks its shape, its ownership tag and its
// behaviour without credentials; the rest belongs to the provider's own tests against a simulated cloud.
export const instanceTaggingContract = capabilityContract<InstanceTagging>({
  capability: InstanceTagging,
  name: 'InstanceTagging',
  snapshot: (tagging) => tagging.ownershipTag('contract-abc12'),
  checks: [
    {
      name: 'shape',
      run: (t, tagging) =>
        assertShape(t, z.object({ ownershipTag: fn, ensureTag: fn, removeTags: fn }), tagging),
    },
    {
      name: 'the ownership tag names the infrastructure and is non-empty',
      run: (t, tagging) => {
        const tag = tagging.ownershipTag('contract-abc12');
        t.true(tag.key.includes('contract-abc12'), `tag key ${tag.key} must name the infraID`);
        t.true(tag.value.length > 0, 'tag value must not be empty');
      },
    },
    {
      name: 'apply (the default) names the value shared, apply-owned names owned',
      run: (t, tagging) => {
        t.is(tagging.ownershipTag('contract-abc12').value, 'shared', 'a BYOH instance is not the cluster’s');
        t.is(tagging.ownershipTag('contract-abc12', 'apply').value, 'shared');
        t.is(tagging.ownershipTag('contract-abc12', 'apply-owned').value, 'owned');
      },
    },
    {
      name: 'without a CloudContext, ensureTag and removeTags reject with CloudNotConfiguredError',
      run: async (t, tagging) => {
        await rejectsNotConfigured(t, () => tagging.ensureTag(CONTRACT_INSTANCE, 'check'));
        await rejectsNotConfigured(t, () => tagging.removeTags(CONTRACT_INSTANCE, []));
      },
    },
  ],
});
