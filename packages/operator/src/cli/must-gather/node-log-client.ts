import { request, type RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

/** One answer of the node proxy: status, and the body's last `cap` bytes with its full length. */
export interface ProxyAnswer {
  readonly status: number;
  readonly body: Buffer;
  readonly totalBytes: number;
}

/** Keeps the last `cap` bytes of a stream without holding more than about `cap` plus one chunk. */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private held = 0;
  total = 0;

  constructor(private readonly cap: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.held += chunk.length;
    this.total += chunk.length;
    while (this.chunks.length > 1 && this.held - (this.chunks[0]?.length ?? 0) >= this.cap) {
      this.held -= this.chunks.shift()?.length ?? 0;
    }
  }

  tail(): Buffer {
    const all = Buffer.concat(this.chunks);
    return all.length > this.cap ? all.subarray(all.length - this.cap) : all;
  }
}

/**
 * GETs `/api/v1/nodes/<node>/proxy/logs/<path>` with the kubeconfig's credentials (what
 * `kubectl get --raw` and `oc adm node-logs` do), keeping at most `cap` bytes: the end of the file.
 */
export async function getNodeLog(
  kc: KubeConfig,
  node: string,
  path: string,
  cap: number,
): Promise<ProxyAnswer> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster');
  const base = new URL(cluster.server);
  const rel = path.split('/').map(encodeURIComponent).join('/');
  const url = new URL(
    `${base.pathname.replace(/\/$/, '')}/api/v1/nodes/${encodeURIComponent(node)}/proxy/logs/${rel}`,
    base,
  );
  const options: RequestOptions = { method: 'GET', headers: { accept: '*/*' } };
  await kc.applyToHTTPSOptions(options);
  return new Promise((resolve, reject) => {
    const req = request(url, options, (res) => {
      const tail = new TailBuffer(cap);
      res.on('data', (d: Buffer) => tail.push(d));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: tail.tail(), totalBytes: tail.total }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
