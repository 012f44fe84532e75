import { request } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';

/** A bare HTTPS client for tests that look at status codes, headers and timing. */
export interface RawResponse {
  readonly code: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  json<T = Record<string, unknown>>(): T;
}

export interface RawRequest {
  readonly method?: string;
  readonly token?: string;
  readonly body?: unknown;
  readonly contentType?: string;
  readonly headers?: Record<string, string>;
}

export function rawCall(
  baseUrl: string,
  caPem: string,
  path: string,
  r: RawRequest = {},
): Promise<RawResponse> {
  const url = new URL(path, baseUrl);
  const payload =
    r.body === undefined
      ? undefined
      : typeof r.body === 'string' || Buffer.isBuffer(r.body)
        ? r.body
        : JSON.stringify(r.body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: r.method ?? 'GET',
        ca: caPem,
        headers: {
          ...(r.token ? { Authorization: `Bearer ${r.token}` } : {}),
          ...(payload !== undefined
            ? {
                'Content-Type': r.contentType ?? 'application/json',
                // Node frames a DELETE body only when told its length (kubectl sends it too).
                'Content-Length': String(Buffer.byteLength(payload)),
              }
            : {}),
          ...r.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            code: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: <T>() => JSON.parse(text) as T,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
