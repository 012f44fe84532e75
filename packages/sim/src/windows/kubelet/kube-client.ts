import { request, type RequestOptions } from 'node:https';
import type { IncomingMessage } from 'node:http';
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

/** One event of a watch stream. */
export interface WatchEvent {
  readonly type: string;
  readonly object: Record<string, unknown>;
}

function readAll(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (d: Buffer) => chunks.push(d));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });
}

function apiError(method: string, url: URL, code: number, text: string): KubeApiError {
  let message = text;
  try {
    const status = JSON.parse(text) as { message?: unknown };
    if (typeof status.message === 'string') message = status.message;
  } catch {
    // not a Status object: keep the text
  }
  return new KubeApiError(code, `${method} ${url.pathname}: ${code} ${message}`);
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

  private options(method: string, timeoutMs: number, contentType?: string): RequestOptions {
    const c = this.creds;
    return {
      method,
      ca: c.caPem,
      ...(c.certPem !== undefined && c.keyPem !== undefined ? { cert: c.certPem, key: c.keyPem } : {}),
      signal: this.signal,
      timeout: timeoutMs,
      headers: {
        Accept: 'application/json',
        'User-Agent': 'kubelet.exe/v1.36.0 (windows/amd64) kubernetes/sim',
        ...(c.token !== undefined ? { Authorization: `Bearer ${c.token}` } : {}),
        ...(contentType !== undefined ? { 'Content-Type': contentType } : {}),
      },
    };
  }

  async call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<T> {
    const url = new URL(path, this.creds.server);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const text = await new Promise<{ code: number; text: string }>((resolve, reject) => {
      const req = request(
        url,
        this.options(method, 10_000, payload !== undefined ? contentType : undefined),
        (res) => {
          readAll(res).then((t) => resolve({ code: res.statusCode ?? 0, text: t }), reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('request timed out')));
      req.on('error', (e) => reject(new Error(`${method} ${url.href}: ${e.message}`)));
      req.end(payload);
    });
    if (text.code < 200 || text.code > 299) throw apiError(method, url, text.code, text.text);
    return JSON.parse(text.text) as T;
  }

  /**
   * A watch (`path` with `watch=true` in its query), as client-go's watch does: `onEvent` sees each event
   * as it arrives, until it returns true (resolves true) or the server ends the stream (resolves false:
   * the caller lists again and re-watches). A non-2xx answer is a KubeApiError; so is a broken stream.
   * `idleMs`: give up on a stream that sent nothing for that long (a dead connection).
   */
  watch(path: string, onEvent: (e: WatchEvent) => boolean, idleMs: number): Promise<boolean> {
    const url = new URL(path, this.creds.server);
    return new Promise<boolean>((resolve, reject) => {
      const req = request(url, this.options('GET', idleMs), (res) => {
        const code = res.statusCode ?? 0;
        if (code < 200 || code > 299) {
          readAll(res).then((t) => reject(apiError('GET', url, code, t)), reject);
          return;
        }
        let buffered = '';
        const settle = (fn: () => void): void => {
          fn();
          req.destroy();
        };
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffered += chunk;
          try {
            for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
              const text = buffered.slice(0, nl).trim();
              buffered = buffered.slice(nl + 1);
              if (text !== '' && onEvent(JSON.parse(text) as WatchEvent)) return settle(() => resolve(true));
            }
          } catch (e) {
            settle(() => reject(e instanceof Error ? e : new Error(String(e))));
          }
        });
        res.on('end', () => resolve(false));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error('watch sent nothing for too long')));
      req.on('error', (e) => reject(new Error(`watch ${url.href}: ${e.message}`)));
      req.end();
    });
  }
}
