import type { IncomingMessage, ServerResponse } from 'node:http';
import { isObject, type JsonObject } from './json.js';
import { decodeProtobuf, PROTOBUF_CONTENT_TYPE } from './protobuf.js';
import { ApiError, errors, type StatusBody } from './status.js';

const MAX_BODY = 3 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > MAX_BODY)
      throw new ApiError(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728');
    chunks.push(c);
  }
  return Buffer.concat(chunks);
}

export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Parses a request body as JSON (any +json / apply-patch+yaml type carrying JSON) or k8s protobuf. */
export function parseBody(req: IncomingMessage, raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const type = mediaType(req);
  if (type === PROTOBUF_CONTENT_TYPE) return decodeProtobuf(raw);
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch (e) {
    if (type === 'application/apply-patch+yaml') {
      throw errors.unsupportedMediaType('the simulated API server accepts apply patches only as JSON');
    }
    throw errors.badRequest(`the body of the request could not be decoded as JSON: ${(e as Error).message}`);
  }
}

export function parseObjectBody(req: IncomingMessage, raw: Buffer): JsonObject {
  const v = parseBody(req, raw);
  if (!isObject(v)) throw errors.badRequest('the request body must be a JSON object');
  return v;
}

export function sendJson(
  res: ServerResponse,
  code: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(code, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendStatus(
  res: ServerResponse,
  status: StatusBody,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status.code, status, headers);
}

export function sendError(res: ServerResponse, e: unknown): void {
  const err =
    e instanceof ApiError
      ? e
      : new ApiError(500, 'InternalError', `Internal error occurred: ${(e as Error).message}`);
  const retry = err.details?.retryAfterSeconds;
  sendStatus(res, err.toStatus(), retry === undefined ? {} : { 'Retry-After': String(retry) });
}
