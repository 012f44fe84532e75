import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { KubeConfig, KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import { MINTED_CREDENTIALS_SECRET } from '@wmco/core/provider';
import { CredentialsMinter, type SimCluster } from '@wmco/sim';
import { parseAllDocuments } from 'yaml';
import type { SimCloud } from './sim-clouds.js';

/** deploy/'s CredentialsRequests: the very objects an admin applies, read from the repository. */
const REQUESTS = fileURLToPath(new URL('../../../../deploy/09-credentialsrequests.yaml', import.meta.url));

/** The CredentialsRequests of deploy/09-credentialsrequests.yaml, with the secretRef namespace set. */
export async function deployCredentialsRequests(namespace: string): Promise<KubernetesObject[]> {
  return parseAllDocuments(await readFile(REQUESTS, 'utf8')).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${REQUESTS}: ${doc.errors[0]?.message ?? ''}`);
    const o = doc.toJS() as KubernetesObject & { spec: { secretRef: { namespace: string } } };
    o.spec.secretRef.namespace = namespace;
    return o;
  });
}

/** Starts the cloud credential operator stand-in for `cloud` in the simulated cluster. */
export function startSimCredentialOperator(cluster: SimCluster, cloud: SimCloud): CredentialsMinter {
  const minter = new CredentialsMinter(cluster.server.writer, cluster.onControllerError, cloud.mint);
  cluster.addController(minter);
  minter.resync();
  return minter;
}

/**
 * As an admin installing the operator does on a cluster whose cloud credential operator mints: applies
 * deploy/'s CredentialsRequests, and resolves once the minted Secret is in the operator's namespace.
 */
export async function applyCredentialsRequests(
  cluster: SimCluster,
  minter: CredentialsMinter,
  namespace: string,
): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromString(cluster.server.kubeconfig(cluster.admin));
  const api = KubernetesObjectApi.makeApiClient(kc);
  for (const o of await deployCredentialsRequests(namespace)) await api.create(o);
  await minter.whenWritten(namespace, MINTED_CREDENTIALS_SECRET);
}
