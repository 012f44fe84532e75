import * as k8s from '@kubernetes/client-node';
import type { SimApiServer } from './api-server.js';

/** The APIs a kubelet uses, as the node `name` (client certificate CN=system:node:<name>, O=system:nodes). */
export interface NodeApis {
  readonly core: k8s.CoreV1Api;
  readonly leases: k8s.CoordinationV1Api;
  readonly certs: k8s.CertificatesV1Api;
}

export async function asNode(sim: SimApiServer, name: string): Promise<NodeApis> {
  return asUser(sim, `system:node:${name}`, ['system:nodes']);
}

/** The same APIs as any client-certificate user (CN=user, O=groups). */
export async function asUser(sim: SimApiServer, user: string, groups: readonly string[]): Promise<NodeApis> {
  const kc = new k8s.KubeConfig();
  kc.loadFromString(await sim.clientCertKubeconfig(user, groups));
  return {
    core: kc.makeApiClient(k8s.CoreV1Api),
    leases: kc.makeApiClient(k8s.CoordinationV1Api),
    certs: kc.makeApiClient(k8s.CertificatesV1Api),
  };
}

/** The Status of a refused call: its code, reason and message. */
export async function refusal(
  p: Promise<unknown>,
): Promise<{ code: number; reason: string; message: string }> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof k8s.ApiException)) throw e;
    const body = (typeof e.body === 'string' ? JSON.parse(e.body) : e.body) as Record<string, unknown>;
    return { code: e.code, reason: String(body['reason']), message: String(body['message']) };
  }
  throw new Error('expected the call to be refused');
}

/** A merge patch through client-node (its default content type is a JSON patch). */
export const MERGE = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

/** A Node object as a kubelet registers it. */
export function nodeBody(name: string, labels: Record<string, string> = {}): k8s.V1Node {
  return { metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } } };
}
