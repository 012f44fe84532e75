import { z } from 'zod';
import { FirewallFacts } from '../../provider/capabilities/firewall-facts.js';
import { assertShape } from './assertions.js';
import { capabilityContract } from './capability-contract.js';
import { CONTRACT_INSTANCE, rejectsNotConfigured } from './cloud-checks.js';

const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', 'a function');

export const firewallFactsContract = capabilityContract<FirewallFacts>({
  capability: FirewallFacts,
  name: 'FirewallFacts',
  checks: [
    { name: 'shape', run: (t, facts) => assertShape(t, z.object({ inspect: fn }), facts) },
    {
      name: 'without a CloudContext, inspect rejects with CloudNotConfiguredError',
      run: (t, facts) => rejectsNotConfigured(t, () => facts.inspect(CONTRACT_INSTANCE, 4789)),
    },
  ],
});
