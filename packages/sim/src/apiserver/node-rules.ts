import type { JsonObject } from './json.js';

const read = ['get', 'list', 'watch'];
const rule = (apiGroups: string[], resources: string[], verbs: string[]): JsonObject => ({
  apiGroups,
  resources,
  verbs,
});

/**
 * The Node authorizer's static rules, `NodeRules()` of kube-apiserver (plugin/pkg/auth/authorizer/rbac/
 * bootstrappolicy/policy.go, read at v1.30-v1.33): what every node may do on the kinds the authorizer does
 * not subdivide. It is also the rule list of the `system:node` ClusterRole, which no one is bound to.
 * Kinds the simulated server does not serve (PVCs, CSI, RuntimeClass, DRA...) are listed as upstream
 * lists them; they match nothing here.
 */
export const NODE_RULES: readonly JsonObject[] = [
  rule(['authentication.k8s.io'], ['tokenreviews'], ['create']),
  rule(['authorization.k8s.io'], ['subjectaccessreviews', 'localsubjectaccessreviews'], ['create']),
  rule([''], ['services'], read),
  rule([''], ['nodes'], ['create', ...read]),
  rule([''], ['nodes/status'], ['update', 'patch']),
  rule([''], ['nodes'], ['update', 'patch']),
  rule([''], ['events'], ['create', 'update', 'patch']),
  rule([''], ['pods'], read),
  rule([''], ['pods'], ['create', 'delete']),
  rule([''], ['pods/status'], ['update', 'patch']),
  rule([''], ['pods/eviction'], ['create']),
  rule([''], ['secrets', 'configmaps'], read),
  rule([''], ['persistentvolumeclaims', 'persistentvolumes'], ['get']),
  rule([''], ['endpoints'], ['get']),
  rule(['certificates.k8s.io'], ['certificatesigningrequests'], ['create', ...read]),
  rule(['coordination.k8s.io'], ['leases'], ['get', 'create', 'update', 'patch', 'delete']),
  rule(['storage.k8s.io'], ['volumeattachments'], ['get']),
  rule([''], ['serviceaccounts/token'], ['create']),
  rule([''], ['persistentvolumeclaims/status'], ['get', 'update', 'patch']),
  rule(['storage.k8s.io'], ['csidrivers'], read),
  rule(['storage.k8s.io'], ['csinodes'], ['get', 'create', 'update', 'patch', 'delete']),
  rule(['node.k8s.io'], ['runtimeclasses'], read),
];
