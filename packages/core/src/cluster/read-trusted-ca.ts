import type { CoreV1Api } from '@kubernetes/client-node';
import type { ImageRegistryBundle } from '../desired/ca-bundle.js';
import { isNotFound } from '../kube/client/api-errors.js';

/** The ConfigMap the cluster network operator injects the cluster's trusted CA bundle into (§1.10). */
export const TRUSTED_CA_CONFIGMAP = 'trusted-ca';
/** The label that asks the cluster network operator to inject `ca-bundle.crt`. */
export const INJECT_TRUSTED_CABUNDLE_LABEL = 'config.openshift.io/inject-trusted-cabundle';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null ? (v as Obj) : {});

/**
 * `spec.imageRegistryBundleUserData` or `spec.imageRegistryBundleData` of ControllerConfig: `{file, data}`
 * entries with base64 data; entries without a file name or data are skipped.
 */
export function registryBundles(controllerConfigSpec: unknown, field: string): ImageRegistryBundle[] {
  const raw = obj(controllerConfigSpec)[field];
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((e) => {
    const { file, data } = obj(e);
    if (typeof file !== 'string' || typeof data !== 'string' || file === '') return [];
    return [{ file, data: Buffer.from(data, 'base64').toString('utf8') }];
  });
}

/** `ca-bundle.crt` of `<namespace>/trusted-ca`, or undefined when the ConfigMap or the key is missing. */
export async function readTrustedCa(core: CoreV1Api, namespace: string): Promise<string | undefined> {
  try {
    const cm = await core.readNamespacedConfigMap({ name: TRUSTED_CA_CONFIGMAP, namespace });
    return cm.data?.['ca-bundle.crt'];
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
