import { readFileSync } from 'node:fs';
import { KubeConfig, VersionApi } from '@kubernetes/client-node';

/** The cluster `wmco sim --cluster KUBECONFIG` attaches to, as its kubeconfig's current context names it. */
export interface AttachTarget {
  /** The user's kubeconfig (a cluster admin: it applies deploy/'s RBAC and, with --seed, the stand-ins). */
  readonly kc: KubeConfig;
  /** The API server URL; the simulated kubelets and the operator's kubeconfig use it as it is. */
  readonly server: string;
  /** The CA of the API server's serving certificate (PEM). */
  readonly caPem: string;
}

function caOf(kc: KubeConfig, file: string): string {
  const cluster = kc.getCurrentCluster();
  if (cluster?.caData) return Buffer.from(cluster.caData, 'base64').toString('utf8');
  if (cluster?.caFile) return readFileSync(cluster.caFile, 'utf8');
  throw new Error(
    `--cluster ${file}: the current cluster has no certificate-authority(-data); the simulated kubelets verify the API server with it`,
  );
}

/** Loads the kubeconfig and checks that its API server answers; every failure names the file. */
export async function loadAttachTarget(file: string): Promise<AttachTarget> {
  const kc = new KubeConfig();
  try {
    kc.loadFromFile(file);
  } catch (e) {
    throw new Error(`--cluster ${file}: cannot read the kubeconfig: ${(e as Error).message}`, {
      cause: e,
    });
  }
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new Error(`--cluster ${file}: the current context names no cluster with a server URL`);
  const caPem = caOf(kc, file);
  try {
    await kc.makeApiClient(VersionApi).getCode();
  } catch (e) {
    throw new Error(`--cluster ${file}: cannot reach the API server at ${server}: ${(e as Error).message}`, {
      cause: e,
    });
  }
  return { kc, server, caPem };
}
