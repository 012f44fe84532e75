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

/** A document to send, or undefined for 404. */
interface Reply {
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

type Route = (
  reg: TypeRegistry,
  parts: readonly string[],
  req: IncomingMessage,
  host: string,
) => Reply | undefined;

function discovery(req: IncomingMessage, legacy: unknown, aggregated: () => unknown): Reply {
  // kubectl treats the reply as aggregated only with exactly this Content-Type (kubectl-needs §2).
  if ((req.headers.accept ?? '').includes('as=APIGroupDiscoveryList')) {
    return { body: aggregated(), headers: { 'Content-Type': AGGREGATED_CONTENT_TYPE, Vary: 'Accept' } };
  }
  return { body: legacy, headers: { Vary: 'Accept' } };
}

const wrap = (body: unknown): Reply | undefined => (body === undefined ? undefined : { body });

/** Routes keyed by the first path segment and the number of segments. */
const ROUTES: Readonly<Record<string, Route>> = {
  'version/1': () => ({ body: SERVER_VERSION, headers: { 'Cache-Control': 'no-cache, private' } }),
  'api/1': (reg, _p, req, host) =>
    discovery(req, legacyApiVersions(host), () => aggregatedDiscovery(reg, true)),
  'apis/1': (reg, _p, req) => discovery(req, legacyGroupList(reg), () => aggregatedDiscovery(reg, false)),
  'api/2': (reg, p) => wrap(resourceList(reg, '', p[1] ?? '')),
  'apis/2': (reg, p) => wrap(legacyGroup(reg, p[1] ?? '')),
  'apis/3': (reg, p) => wrap(resourceList(reg, p[1] ?? '', p[2] ?? '')),
  'openapi/2': (reg, p) => (p[1] === 'v3' ? { body: openApiRoot(reg) } : undefined),
  'openapi/4': (reg, p) =>
    p[1] === 'v3' && p[2] === 'api' ? wrap(openApiGroupVersion(reg, '', p[3] ?? '')) : undefined,
  'openapi/5': (reg, p) =>
    p[1] === 'v3' && p[2] === 'apis' ? wrap(openApiGroupVersion(reg, p[3] ?? '', p[4] ?? '')) : undefined,
};

const HEALTH = new Set(['healthz', 'readyz', 'livez']);

/** Discovery, /version, OpenAPI v3 and health endpoints. Returns false when the path is not one of them. */
export function serveNonResource(
  reg: TypeRegistry,
  req: IncomingMessage,
  res: ServerResponse,
  host: string,
): boolean {
  const path = new URL(req.url ?? '/', 'https://sim.invalid').pathname;
  const parts = path.split('/').filter((p) => p !== '');
  if (parts.length === 1 && HEALTH.has(parts[0] ?? '')) {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end('ok');
    return true;
  }
  const route = ROUTES[`${parts[0] ?? ''}/${parts.length}`];
  if (!route) return false;
  const reply = route(reg, parts, req, host);
  if (!reply) throw notFoundPath();
  sendJson(res, 200, reply.body, reply.headers ?? {});
  return true;
}

export function notFoundPath(): ApiError {
  return new ApiError(404, 'NotFound', 'the server could not find the requested resource');
}
