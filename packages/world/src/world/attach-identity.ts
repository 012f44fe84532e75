import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoreV1Api, KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import { OPERATOR_NAMESPACE, OPERATOR_SERVICE_ACCOUNT } from '@wmco/sim';
import { parseAllDocuments } from 'yaml';
import { createIfAbsent, waitFor, type CreateReport, type CreatedSink } from './attach-objects.js';
import type { AttachTarget } from './attach-target.js';

/** The repository's deploy/ (next to packages/ in a checkout). */
export const DEPLOY_DIR = fileURLToPath(new URL('../../../../deploy/', import.meta.url));
/** What attach mode applies from deploy/: the namespace, the ServiceAccount and its RBAC (not the Deployment). */
const APPLIED_KINDS = new Set([
  'Namespace',
  'ServiceAccount',
  'ClusterRole',
  'ClusterRoleBinding',
  'Role',
  'RoleBinding',
]);
const TOKEN_SECRET = `${OPERATOR_SERVICE_ACCOUNT}-sim-token`;

/** The namespace, ServiceAccount and RBAC objects of deploy/, in file order. */
export async function deployObjects(dir = DEPLOY_DIR): Promise<KubernetesObject[]> {
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.yaml')).sort();
  if (files.length === 0) throw new Error(`no deploy manifests (*.yaml) in ${dir}`);
  const out: KubernetesObject[] = [];
  for (const f of files) out.push(...applied(f, await readFile(join(dir, f), 'utf8')));
  return out;
}

function applied(file: string, text: string): KubernetesObject[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]?.message ?? ''}`);
      return doc.toJS() as KubernetesObject | null;
    })
    .filter((o): o is KubernetesObject => o?.kind !== undefined && APPLIED_KINDS.has(o.kind));
}

/** deploy/ has a Role and RoleBinding here that are needed only where the namespace exists (ADR 0019). */
const CLUSTER_API_NAMESPACE = 'openshift-cluster-api';

async function namespaceExists(kc: KubeConfig, name: string): Promise<boolean> {
  return kc
    .makeApiClient(CoreV1Api)
    .readNamespace({ name })
    .then(
      () => true,
      (e: unknown) => {
        if ((e as { code?: number }).code === 404) return false;
        throw e;
      },
    );
}

/**
 * Applies deploy/'s namespace, ServiceAccount and RBAC as the target's user (existing objects are kept);
 * the objects in openshift-cluster-api are left out on a cluster without that namespace, as
 * deploy/README.md tells a user to.
 */
export async function applyDeployRbac(
  target: AttachTarget,
  onCreated?: CreatedSink,
  dir = DEPLOY_DIR,
): Promise<CreateReport> {
  const objects = await deployObjects(dir);
  const capi = await namespaceExists(target.kc, CLUSTER_API_NAMESPACE);
  return createIfAbsent(
    target.kc,
    objects.filter((o) => capi || o.metadata?.namespace !== CLUSTER_API_NAMESPACE),
    onCreated,
  );
}

async function hasTokenRequest(core: CoreV1Api): Promise<boolean> {
  const list = await core.getAPIResources();
  return list.resources.some((r) => r.name === 'serviceaccounts/token');
}

/** A bearer token of a service-account-token Secret, once the cluster's token controller filled it. */
async function secretToken(core: CoreV1Api, onCreated?: CreatedSink): Promise<string> {
  const namespace = OPERATOR_NAMESPACE;
  const body = {
    metadata: {
      name: TOKEN_SECRET,
      namespace,
      annotations: { 'kubernetes.io/service-account.name': OPERATOR_SERVICE_ACCOUNT },
    },
    type: 'kubernetes.io/service-account-token',
  };
  await core.createNamespacedSecret({ namespace, body }).then(
    () => onCreated?.({ apiVersion: 'v1', kind: 'Secret', namespace, name: TOKEN_SECRET }),
    (e: unknown) => {
      if ((e as { code?: unknown }).code !== 409) throw e;
    },
  );
  const token = await waitFor(
    `the cluster's token controller to fill secret ${namespace}/${TOKEN_SECRET}`,
    async () => (await core.readNamespacedSecret({ name: TOKEN_SECRET, namespace })).data?.['token'],
    30_000,
  );
  return Buffer.from(token, 'base64').toString('utf8');
}

/**
 * A token for the operator's ServiceAccount: a TokenRequest where the server serves
 * `serviceaccounts/token`, else a `kubernetes.io/service-account-token` Secret. Says which it used.
 */
export async function operatorToken(
  target: AttachTarget,
  onCreated?: CreatedSink,
): Promise<{ token: string; how: string }> {
  const core = target.kc.makeApiClient(CoreV1Api);
  if (!(await hasTokenRequest(core)))
    return { token: await secretToken(core, onCreated), how: `secret ${TOKEN_SECRET}` };
  const tr = await core.createNamespacedServiceAccountToken({
    name: OPERATOR_SERVICE_ACCOUNT,
    namespace: OPERATOR_NAMESPACE,
    body: { spec: { audiences: [], expirationSeconds: 24 * 3600 } },
  });
  return { token: tr.status?.token ?? '', how: 'TokenRequest' };
}

/** Writes a kubeconfig for the operator's ServiceAccount on the target's server and CA; returns it. */
export async function writeOperatorKubeconfig(
  target: AttachTarget,
  token: string,
  file: string,
): Promise<KubeConfig> {
  const kc = new KubeConfig();
  const user = `system:serviceaccount:${OPERATOR_NAMESPACE}:${OPERATOR_SERVICE_ACCOUNT}`;
  kc.loadFromOptions({
    clusters: [
      { name: 'attached', server: target.server, caData: Buffer.from(target.caPem).toString('base64') },
    ],
    users: [{ name: user, token }],
    contexts: [{ name: 'operator', cluster: 'attached', user, namespace: OPERATOR_NAMESPACE }],
    currentContext: 'operator',
  });
  await writeFile(file, kc.exportConfig(), { mode: 0o600 });
  return kc;
}
