import { builtinType, type ResourceType } from './resource-type.js';

const RBAC = 'rbac.authorization.k8s.io';

/** The built-in kinds the simulated API server serves. */
export const BUILTIN_TYPES: readonly ResourceType[] = [
  builtinType({
    kind: 'Namespace',
    namespaced: false,
    shortNames: ['ns'],
    subresources: ['status', 'finalize'],
    fieldSelectors: ['status.phase'],
  }),
  builtinType({
    kind: 'Node',
    namespaced: false,
    shortNames: ['no'],
    subresources: ['status'],
    fieldSelectors: ['spec.unschedulable'],
    keepStatusOnCreate: true,
  }),
  builtinType({ kind: 'ConfigMap', shortNames: ['cm'] }),
  builtinType({ kind: 'Secret', fieldSelectors: ['type'] }),
  builtinType({ kind: 'Service', shortNames: ['svc'], subresources: ['status'], categories: ['all'] }),
  builtinType({ kind: 'Endpoints', plural: 'endpoints', shortNames: ['ep'] }),
  builtinType({
    kind: 'Event',
    shortNames: ['ev'],
    fieldSelectors: [
      'involvedObject.kind',
      'involvedObject.name',
      'involvedObject.namespace',
      'involvedObject.uid',
      'reason',
      'type',
    ],
  }),
  builtinType({ kind: 'ServiceAccount', shortNames: ['sa'] }),
  builtinType({
    kind: 'Pod',
    shortNames: ['po'],
    categories: ['all'],
    subresources: ['status', 'eviction'],
    fieldSelectors: ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'status.phase', 'status.podIP'],
    generation: true,
  }),
  builtinType({ group: 'coordination.k8s.io', kind: 'Lease' }),
  builtinType({ group: 'events.k8s.io', kind: 'Event', shortNames: ['ev'] }),
  builtinType({
    group: 'certificates.k8s.io',
    kind: 'CertificateSigningRequest',
    namespaced: false,
    shortNames: ['csr'],
    subresources: ['status', 'approval'],
    fieldSelectors: ['spec.signerName'],
  }),
  builtinType({
    group: 'policy',
    kind: 'PodDisruptionBudget',
    shortNames: ['pdb'],
    subresources: ['status'],
    generation: true,
  }),
  builtinType({
    group: 'apps',
    kind: 'DaemonSet',
    shortNames: ['ds'],
    categories: ['all'],
    subresources: ['status'],
    generation: true,
  }),
  builtinType({ group: RBAC, kind: 'Role' }),
  builtinType({ group: RBAC, kind: 'ClusterRole', namespaced: false }),
  builtinType({ group: RBAC, kind: 'RoleBinding' }),
  builtinType({ group: RBAC, kind: 'ClusterRoleBinding', namespaced: false }),
  builtinType({
    group: 'apiextensions.k8s.io',
    kind: 'CustomResourceDefinition',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    subresources: ['status'],
    generation: true,
  }),
];
