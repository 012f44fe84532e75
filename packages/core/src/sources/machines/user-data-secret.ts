import type { CoreV1Api, V1Secret } from '@kubernetes/client-node';
import { buildUserData } from '../../desired/user-data.js';
import { httpStatus } from '../../kube/watch-port.js';
import type { UserDataFormat } from '../../provider/capabilities/user-data-format.js';
import { publicKeyOf } from '../../desired/public-key.js';
import { MACHINE_API_NAMESPACE } from './machine-object.js';

export const USER_DATA_SECRET = 'windows-user-data';
/** Upstream mirrors the Secret here so CAPI-provisioned Machines do not stay Pending (OCPBUGS-38401). */
export const CLUSTER_API_NAMESPACE = 'openshift-cluster-api';

/** The `windows-user-data` Secret body for a private key on a platform. */
export function userDataSecret(namespace: string, privateKeyPem: string, format: UserDataFormat): V1Secret {
  const userData = buildUserData(publicKeyOf(privateKeyPem), format);
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: USER_DATA_SECRET, namespace },
    type: 'Opaque',
    data: { userData: Buffer.from(userData, 'utf8').toString('base64') },
  };
}

async function namespaceExists(core: CoreV1Api, name: string): Promise<boolean> {
  try {
    await core.readNamespace({ name });
    return true;
  } catch (e) {
    if (httpStatus(e) === 404) return false;
    throw e;
  }
}

/** Creates or replaces one copy when its `userData` differs; true when it wrote. */
async function ensureCopy(core: CoreV1Api, want: V1Secret): Promise<boolean> {
  const namespace = want.metadata?.namespace ?? '';
  const current = await core
    .readNamespacedSecret({ name: USER_DATA_SECRET, namespace })
    .catch((e: unknown) => {
      if (httpStatus(e) === 404) return undefined;
      throw e;
    });
  if (!current) {
    await core.createNamespacedSecret({ namespace, body: want });
    return true;
  }
  if (current.data?.['userData'] === want.data?.['userData']) return false;
  await core.replaceNamespacedSecret({
    name: USER_DATA_SECRET,
    namespace,
    body: { ...current, data: { ...current.data, userData: want.data?.['userData'] ?? '' } },
  });
  return true;
}

/**
 * Keeps `windows-user-data` in openshift-machine-api (and openshift-cluster-api when that namespace
 * exists) equal to the script for the current private key; returns the namespaces it wrote.
 */
export async function ensureUserDataSecrets(
  core: CoreV1Api,
  privateKeyPem: string,
  format: UserDataFormat,
): Promise<string[]> {
  const written: string[] = [];
  for (const ns of [MACHINE_API_NAMESPACE, CLUSTER_API_NAMESPACE]) {
    if (ns !== MACHINE_API_NAMESPACE && !(await namespaceExists(core, ns))) continue;
    if (await ensureCopy(core, userDataSecret(ns, privateKeyPem, format))) written.push(ns);
  }
  return written;
}
