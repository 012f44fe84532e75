import ssh2 from 'ssh2';
import { workerAddresses } from '../testing/worker-octet.js';
import { createCsr } from '../apiserver/x509.js';
import type { JsonObject } from '../apiserver/json.js';
import type { RequestUser } from '../apiserver/request-user.js';
import type { SimCluster } from '../cluster/sim-cluster.js';

/** Loopback addresses of their own for this worker thread's VMs. */
export const machineAddress = workerAddresses(3);

export async function eventually<T>(what: string, fn: () => T | undefined, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Logs in over SSH as `username` (Administrator) with the key: 'ok', 'auth' (refused) or 'down' (nothing answers). */
export function sshLogin(
  address: string,
  port: number,
  privateKey: string,
  username = 'Administrator',
): Promise<'ok' | 'auth' | 'down'> {
  return new Promise((resolve) => {
    const c = new ssh2.Client();
    c.on('ready', () => {
      c.end();
      resolve('ok');
    });
    c.on('error', (e: Error & { level?: string }) =>
      resolve(e.level === 'client-authentication' ? 'auth' : 'down'),
    );
    c.connect({ host: address, port, username, privateKey, readyTimeout: 5000 });
  });
}

/** A Node as a kubelet registers it: InternalIP address, Ready. */
export function registerNode(c: SimCluster, name: string, address: string): void {
  const w = c.server.writer;
  const t = w.registry.mustFind('', 'v1', 'nodes');
  w.create(t, undefined, { metadata: { name, labels: { 'kubernetes.io/os': 'windows' } } });
  w.mutate({ type: t, namespace: undefined, name, subresource: 'status' }, (n) => ({
    ...n,
    status: {
      addresses: [{ type: 'InternalIP', address }],
      conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: new Date().toISOString() }],
    },
  }));
}

/** A kubelet CSR created as `user`. */
export async function submitCsr(
  c: SimCluster,
  name: string,
  user: RequestUser,
  input: { cn: string; signer: string; usages: string[]; dns?: string[]; ips?: string[] },
): Promise<void> {
  const { csrPem } = await createCsr({
    commonName: input.cn,
    organizations: ['system:nodes'],
    ...(input.dns ? { dnsNames: input.dns } : {}),
    ...(input.ips ? { ipAddresses: input.ips } : {}),
  });
  const w = c.server.writer;
  const body: JsonObject = {
    metadata: { name },
    spec: {
      request: Buffer.from(csrPem).toString('base64'),
      signerName: input.signer,
      usages: input.usages,
    },
  };
  w.create(
    w.registry.mustFind('certificates.k8s.io', 'v1', 'certificatesigningrequests'),
    undefined,
    body,
    user,
  );
}
