import { csrConditionsRule, leaseRule, nodeRule, ruleHooks, serviceRule } from './builtin-validation.js';
import type { TypeHooks } from './type-hooks.js';

/** group, plural and the validation hooks of the kinds builtin-validation.ts has rules for. */
export function builtinValidationHooks(): [string, string, TypeHooks][] {
  return [
    ['', 'services', ruleHooks('Service', '', serviceRule)],
    ['', 'nodes', ruleHooks('Node', '', nodeRule)],
    ['coordination.k8s.io', 'leases', ruleHooks('Lease', 'coordination.k8s.io', leaseRule)],
    [
      'certificates.k8s.io',
      'certificatesigningrequests',
      ruleHooks('CertificateSigningRequest', 'certificates.k8s.io', csrConditionsRule),
    ],
  ];
}
