import type { JsonObject } from '../apiserver/json.js';
import { NODE_RULES } from '../apiserver/node-rules.js';

/**
 * The bootstrap ClusterRoles and bindings of a fresh cluster that the simulated world depends on. Nodes
 * get their rights from the Node authorizer: the `system:node` ClusterRole holds its rules but, as in
 * every cluster since v1.8, its binding has no subjects.
 */
const RBAC = 'rbac.authorization.k8s.io/v1';
const CERTS = 'certificates.k8s.io';

function role(name: string, rules: readonly JsonObject[]): JsonObject {
  return {
    apiVersion: RBAC,
    kind: 'ClusterRole',
    metadata: { name, labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } },
    rules: [...rules],
  };
}

function binding(name: string, roleName: string, subjects: readonly JsonObject[]): JsonObject {
  return {
    apiVersion: RBAC,
    kind: 'ClusterRoleBinding',
    metadata: { name, labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
    subjects: [...subjects],
  };
}

const group = (name: string): JsonObject => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name });
const read = ['get', 'list', 'watch'];

export const DEFAULT_CLUSTER_ROLES: readonly JsonObject[] = [
  role('cluster-admin', [
    { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
    { nonResourceURLs: ['*'], verbs: ['*'] },
  ]),
  role('system:discovery', [
    {
      nonResourceURLs: [
        '/api',
        '/api/*',
        '/apis',
        '/apis/*',
        '/healthz',
        '/livez',
        '/readyz',
        '/openapi',
        '/openapi/*',
        '/version',
        '/version/',
      ],
      verbs: ['get'],
    },
  ]),
  role('system:basic-user', [
    {
      apiGroups: ['authorization.k8s.io'],
      resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
      verbs: ['create'],
    },
    { apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'], verbs: ['create'] },
  ]),
  role('system:node-bootstrapper', [
    { apiGroups: [CERTS], resources: ['certificatesigningrequests'], verbs: ['create', ...read] },
  ]),
  role('system:node', NODE_RULES),
];

export const DEFAULT_CLUSTER_ROLE_BINDINGS: readonly JsonObject[] = [
  binding('cluster-admin', 'cluster-admin', [group('system:masters')]),
  binding('system:discovery', 'system:discovery', [group('system:authenticated')]),
  binding('system:basic-user', 'system:basic-user', [group('system:authenticated')]),
  binding('system:node-bootstrapper', 'system:node-bootstrapper', [group('system:bootstrappers')]),
  binding('system:node', 'system:node', []),
  // OpenShift's machine-config-operator binds its node-bootstrapper service account the same way.
  binding('system-bootstrap-node-bootstrapper', 'system:node-bootstrapper', [
    {
      kind: 'ServiceAccount',
      name: 'node-bootstrapper',
      namespace: 'openshift-machine-config-operator',
    },
  ]),
];
