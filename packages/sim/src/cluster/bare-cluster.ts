import { meta, str, type JsonObject } from '../apiserver/json.js';
import { SimApiServer } from '../apiserver/api-server.js';
import { hasStatus } from '../apiserver/resource-type.js';
import { bootstrapTokenLookup } from './bootstrap-tokens.js';
import type { ErrorSink, SimController } from './controller.js';
import { CsrSigner } from './csr-signer.js';
import { DEFAULT_CLUSTER_ROLE_BINDINGS, DEFAULT_CLUSTER_ROLES } from './default-rbac.js';
import { GarbageCollector } from './garbage-collector.js';
import { NamespaceController } from './namespace-controller.js';
import { NodeLifecycle } from './node-lifecycle.js';
import { ServiceAccountTokenController } from './token-controller.js';

/** The binding OpenShift's machine-config-operator adds; a plain Kubernetes cluster does not have it. */
const OPENSHIFT_ONLY_BINDINGS = new Set(['system-bootstrap-node-bootstrapper']);
const KUBE_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export interface BareCluster {
  readonly server: SimApiServer;
  readonly errors: readonly { controller: string; error: unknown }[];
  stop(): Promise<void>;
}

function put(server: SimApiServer, o: JsonObject): void {
  const t = server.registry.byKind(str(o['apiVersion']) ?? '', str(o['kind']) ?? '');
  if (!t) throw new Error(`bare cluster: no served type for ${str(o['kind']) ?? ''}`);
  const created = server.writer.create(t, str(meta(o)['namespace']), o);
  if (hasStatus(t) && o['status'] !== undefined) {
    const name = str(meta(created)['name']) ?? '';
    server.writer.update({ type: t, namespace: undefined, name, subresource: 'status' }, o);
  }
}

/**
 * A plain Kubernetes cluster as kind or k3s start one: the API server with the kube-controller-manager
 * parts the operator meets (CSR signer, token controller, namespace and garbage collection, node
 * lifecycle) and Kubernetes' own RBAC and namespaces, but no OpenShift CRD, object, service account or
 * hybrid-overlay annotator. Attach mode (`wmco sim --cluster`) is tested against it as an outside cluster.
 */
export async function startBareCluster(
  opts: { readonly rbac?: boolean; readonly onControllerError?: ErrorSink } = {},
): Promise<BareCluster> {
  const server = await SimApiServer.start({ rbac: opts.rbac ?? true });
  const errors: { controller: string; error: unknown }[] = [];
  const onError: ErrorSink =
    opts.onControllerError ?? ((controller, error) => errors.push({ controller, error }));
  const w = server.writer;
  const saTokens = new ServiceAccountTokenController(w, server.caPem, onError);
  const controllers: SimController[] = [
    new GarbageCollector(w, onError),
    new NamespaceController(w, onError),
    new CsrSigner(w, server.ca, onError),
    new NodeLifecycle(w, { gracePeriodSeconds: 40, intervalMs: 1000 }, onError),
    saTokens,
  ];
  controllers.forEach((c) => c.start());
  server.authn.addLookup(bootstrapTokenLookup(w));
  server.authn.addLookup(saTokens.lookup());
  try {
    DEFAULT_CLUSTER_ROLES.forEach((o) => put(server, o));
    DEFAULT_CLUSTER_ROLE_BINDINGS.filter(
      (b) => !OPENSHIFT_ONLY_BINDINGS.has(str(meta(b)['name']) ?? ''),
    ).forEach((o) => put(server, o));
    KUBE_NAMESPACES.forEach((name) =>
      put(server, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }),
    );
  } catch (e) {
    controllers.forEach((c) => c.stop());
    await server.stop();
    throw e;
  }
  return {
    server,
    errors,
    async stop(): Promise<void> {
      controllers.forEach((c) => c.stop());
      await server.stop();
    },
  };
}
