import { builtinValidationHooks } from './builtin-validation-hooks.js';
import { configMapHooks, namespaceHooks, podHooks, secretHooks } from './core-admission.js';
import { CrdController, crdHooks } from './crd-serving.js';
import { csrHooks } from './csr-admission.js';
import { coreEventHooks, eventsApiEventHooks } from './event-admission.js';
import {
  nodeRestrictionCsrHooks,
  nodeRestrictionLeaseHooks,
  nodeRestrictionNodeHooks,
} from './node-restriction.js';
import { nodeRestrictionPodHooks } from './node-restriction-pods.js';
import type { ObjectWriter } from './object-writer.js';
import type { TypeHooks } from './type-hooks.js';
import type { TypeRegistry } from './type-registry.js';

/** The registry strategies of the built-in kinds, and the CRD controller, on a writer. */
export function installBuiltinHooks(w: ObjectWriter, r: TypeRegistry): void {
  const add = (group: string, plural: string, h: TypeHooks): void =>
    w.addHooks(r.mustFind(group, 'v1', plural), h);
  // NodeRestriction is admission: it judges a node's write before the kind's own validation.
  add('', 'nodes', nodeRestrictionNodeHooks);
  add('', 'pods', nodeRestrictionPodHooks(w.store, r));
  add('coordination.k8s.io', 'leases', nodeRestrictionLeaseHooks);
  add('certificates.k8s.io', 'certificatesigningrequests', nodeRestrictionCsrHooks);
  add('', 'configmaps', configMapHooks);
  add('', 'secrets', secretHooks);
  add('', 'namespaces', namespaceHooks);
  add('', 'pods', podHooks);
  add('', 'events', coreEventHooks);
  add('events.k8s.io', 'events', eventsApiEventHooks);
  add('certificates.k8s.io', 'certificatesigningrequests', csrHooks);
  add('apiextensions.k8s.io', 'customresourcedefinitions', crdHooks);
  for (const [group, plural, h] of builtinValidationHooks()) add(group, plural, h);
  const crds = new CrdController(w);
  w.store.subscribe((e) => crds.onEvent(e));
}
