import type { CustomObjectsApi } from '@kubernetes/client-node';
import { isNotFound } from '../kube/client/api-errors.js';

/** Proxy status fields and the variables they become (reference §1.10). */
const FIELDS = [
  ['httpProxy', 'HTTP_PROXY'],
  ['httpsProxy', 'HTTPS_PROXY'],
  ['noProxy', 'NO_PROXY'],
] as const;

/**
 * The cluster-wide proxy from `proxies.config.openshift.io/cluster` `.status` (what the cluster network
 * operator validated and completed, e.g. NO_PROXY with the cluster's own networks): the variables with a
 * non-empty value, verbatim. `{}`: no proxy. Undefined: the cluster has no Proxy object (not OpenShift).
 */
export async function readClusterProxy(
  custom: CustomObjectsApi,
): Promise<Record<string, string> | undefined> {
  let proxy: { status?: Record<string, unknown> };
  try {
    proxy = (await custom.getClusterCustomObject({
      group: 'config.openshift.io',
      version: 'v1',
      plural: 'proxies',
      name: 'cluster',
    })) as { status?: Record<string, unknown> };
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
  const vars: Record<string, string> = {};
  for (const [field, name] of FIELDS) {
    const value = proxy.status?.[field];
    if (typeof value === 'string' && value !== '') vars[name] = value;
  }
  return vars;
}
