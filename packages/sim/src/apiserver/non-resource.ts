import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from './http-io.js';
import {
  AGGREGATED_CONTENT_TYPE,
  SERVER_VERSION,
  aggregatedDiscovery,
  legacyApiVersions,
  legacyGroup,
  legacyGroupList,
  resourceList,
} from './discovery.js';
import { openApiGroupVersion, openApiRoot } from './openapi.js';
import type { TypeRegistry } from './type-registry.js';
import { ApiError } from './status.js';

function wantsAggregated(req: IncomingMessage): boolean {
  return (req.headers.accept ?? '').includes('as=APIGroupDiscoveryList');
}

function sendDiscovery(req: IncomingMessage, res: ServerResponse, legacyDoc: unknown, aggregated: () => unknown): void {
  if (wantsAggregated(req)) {
    sendJson(res, 200, aggregated(), { 'Content-Type': AGGREGATED_CONTENT_TYPE, Vary: 'Accept' });
  } else sendJson(res, 200, legacyDoc, { Vary: 'Accept' });
}

/** Discovery, /version, OpenAPI v3 and health endpoints. Returns false when the path is not one of them. */
export function serveNonResource(reg: TypeRegistry, req: IncomingMessage, res: ServerResponse, path: string, host: string): boolean {
  const parts = path.split('/').filter((p) => p !== '');
  if (path === '/version' || path === '/version/') {
    sendJson(res, 200, SERVER_VERSION, { 'Cache-Control': 'no-cache, private' });
    return true;
  }
  if (['/healthz', '/readyz', '/livez'].includes(path)) {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end('ok');
    return true;
  }
  if (path === '/api' || path === '/api/') {
    sendDiscovery(req, res, legacyApiVersions(host), () => aggregatedDiscovery(reg, true));
    return true;
  }
  if (path === '/apis' || path === '/apis/') {
    sendDiscovery(req, res, legacyGroupList(reg), () => aggregatedDiscovery(reg, false));
    return true;
  }
  if (parts[0] === 'api' && parts.length === 2) return sendOr404(res, resourceList(reg, '', parts[1] ?? ''));
  if (parts[0] === 'apis' && parts.length === 2) return sendOr404(res, legacyGroup(reg, parts[1] ?? ''));
  if (parts[0] === 'apis' && parts.length === 3) return sendOr404(res, resourceList(reg, parts[1] ?? '', parts[2] ?? ''));
  if (path === '/openapi/v3') {
    sendJson(res, 200, openApiRoot(reg));
    return true;
  }
  if (parts[0] === 'openapi' && parts[1] === 'v3') {
    const group = parts[2] === 'api' ? '' : (parts[3] ?? '');
    const version = parts[2] === 'api' ? (parts[3] ?? '') : (parts[4] ?? '');
    return sendOr404(res, openApiGroupVersion(reg, group, version));
  }
  return false;
}

function sendOr404(res: ServerResponse, doc: unknown): true {
  if (doc === undefined) throw notFoundPath();
  sendJson(res, 200, doc);
  return true;
}

export function notFoundPath(): ApiError {
  return new ApiError(404, 'NotFound', 'the server could not find the requested resource');
}
