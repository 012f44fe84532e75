import { request } from 'node:https';
import type { KubeconfigCredentials } from './kubeconfig-file.js';

/** A non-2xx answer from the API server. */
export class KubeApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The kubelet's API client: HTTPS that trusts ONLY the kubeconfig's CA, authenticating with its bearer
 * token or client certificate. Connection and TLS failures become errors that name the server.
 */
export class KubeClient {
  constructor(
    private readonly creds: KubeconfigCredentials,
    private readonly signal: AbortSignal,
  ) {}

  get server(): string {
    return this.creds.server;
  }

  async call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<T> {
    const url = new URL(path, this.creds.server);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const c = this.creds;
    const text = await new Promise<{ code: number; text: string }>((resolve, reject) => {
      const req = request(
        url,
        {
          method,
          ca: c.caPem,
          ...(c.certPem !== undefined && c.keyPem !== undefined ? { cert: c.certPem, key: c.keyPem } : {}),
          signal: this.signal,
          timeout: 10_000,
          headers: {
            Accept: 'application/json',
            'User-Agent': 'kubelet.exe/v1.36.0 (windows/amd64) kubernetes/sim',
            ...(c.token !== undefined ? { Authorization: `Bearer ${c.token}` } : {}),
            ...(payload !== undefined ? { 'Content-Type': contentType } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', () =>
            resolve({ code: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('request timed out')));
      req.on('error', (e) => reject(new Error(`${method} ${url.href}: ${e.message}`)));
      req.end(payload);
    });
    if (text.code < 200 || text.code > 299) {
      let message = text.text;
      try {
        const status = JSON.parse(text.text) as { message?: unknown };
        if (typeof status.message === 'string') message = status.message;
      } catch {
        // not a Status object: keep the text
      }
      throw new KubeApiError(text.code, `${method} ${url.pathname}: ${text.code} ${message}`);
    }
    return JSON.parse(text.text) as T;
  }
}
