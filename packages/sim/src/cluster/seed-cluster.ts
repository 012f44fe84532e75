import type { SimApiServer } from '../apiserver/api-server.js';
import { meta, str, type JsonObject } from '../apiserver/json.js';
import { hasStatus } from '../apiserver/resource-type.js';
import { bootstrapTokenSecret } from './bootstrap-tokens.js';
import { DEFAULT_CLUSTER_ROLE_BINDINGS, DEFAULT_CLUSTER_ROLES } from './default-rbac.js';
import { OPENSHIFT_CRDS } from './openshift-crds.js';
import * as seed from './seed-objects.js';

export const OPERATOR_NAMESPACE = 'openshift-windows-machine-config-operator';
export const OPERATOR_SERVICE_ACCOUNT = 'windows-machine-config-operator';

/**
 * The namespaces of a fresh OpenShift 4.x cluster that the docs, deploy/ and the operator refer to:
 * openshift-cluster-api is the namespace of the cluster-capi-operator's manifests in the release payload
 * (deploy/ puts a Role there, ADR 0019), openshift-monitoring that of the cluster monitoring stack.
 */
const NAMESPACES = [
  'default',
  'kube-system',
  'kube-public',
  'kube-node-lease',
  'openshift-config',
  'openshift-config-managed',
  'openshift-machine-api',
  'openshift-machine-config-operator',
  'openshift-cloud-credential-operator',
  'openshift-cluster-api',
  'openshift-monitoring',
];

function put(server: SimApiServer, o: JsonObject): JsonObject {
  const t = server.registry.byKind(str(o['apiVersion']) ?? '', str(o['kind']) ?? '');
  if (!t) throw new Error(`seed: no served type for ${str(o['apiVersion']) ?? ''} ${str(o['kind']) ?? ''}`);
  const ns = str(meta(o)['namespace']);
  const created = server.writer.create(t, ns, o);
  if (hasStatus(t) && o['status'] !== undefined) {
    const name = str(meta(created)['name']) ?? '';
    server.writer.update(
      { type: t, namespace: ns, name, subresource: 'status' },
      { ...created, status: o['status'] },
    );
  }
  return created;
}

/** Writes the bootstrap RBAC, namespaces, CRDs and OpenShift configuration of a fresh cluster. */
export function seedCluster(
  server: SimApiServer,
  input: seed.SeedInput,
  boot: { readonly id: string; readonly secret: string; readonly nodeBootstrapperToken: string },
): void {
  [...DEFAULT_CLUSTER_ROLES, ...DEFAULT_CLUSTER_ROLE_BINDINGS].forEach((o) => put(server, o));
  NAMESPACES.forEach((name) => put(server, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }));
  put(server, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: OPERATOR_NAMESPACE, labels: { 'openshift.io/cluster-monitoring': 'true' } },
  });
  OPENSHIFT_CRDS.forEach((o) => put(server, o));
  [
    seed.infrastructure(input),
    seed.networkConfig(),
    seed.networkOperator(input),
    seed.clusterSingleton('Proxy'),
    seed.clusterSingleton('APIServer'),
    seed.controllerConfig(input),
    seed.renderedWorker(input),
    seed.pullSecret(),
    // kubeadm-style bootstrap token: real Kubernetes behaviour, for clusters that are not OpenShift.
    bootstrapTokenSecret(boot.id, boot.secret, ['system:bootstrappers:worker']),
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: OPERATOR_SERVICE_ACCOUNT, namespace: OPERATOR_NAMESPACE },
    },
    seed.windowsExporterService(OPERATOR_NAMESPACE),
    ...seed.cloudNodeManagerIdentity(OPERATOR_NAMESPACE),
  ].forEach((o) => put(server, o));
  const sa = put(server, seed.nodeBootstrapperServiceAccount());
  const uid = str(meta(sa)['uid']) ?? '';
  put(server, seed.nodeBootstrapperToken(server.caPem, boot.nodeBootstrapperToken, uid));
}
