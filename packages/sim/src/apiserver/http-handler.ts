import type { IncomingMessage, ServerResponse } from 'node:http';
import { authorizeApproval } from './approval-authz.js';
import { nameFromFieldSelector } from './selector-name.js';
import type { Authenticator } from './authn.js';
import { sendError } from './http-io.js';
import { notFoundPath, serveNonResource } from './non-resource.js';
import { authorizationForbidden } from './forbidden.js';
import type { AuthzAttributes } from './rbac.js';
import type { RequestUser } from './request-user.js';
import { parseRequestPath, type ResourceRequest } from './request-info.js';
import { handleResource } from './resource-handler.js';
import { impersonate } from './impersonation.js';
import { admitNodeDeletion } from './node-deletion.js';
import { isNodeProxy, nodeProxyAttributes, serveNodeProxy } from './node-proxy.js';
import type { ServerContext } from './server-context.js';
import { errors } from './status.js';

/** One request as the pipeline sees it. */
export interface Exchange {
  readonly ctx: ServerContext;
  readonly authn: Authenticator;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** host:port, for the legacy discovery document. */
  readonly host: string;
}

const METHOD_VERBS: Readonly<Record<string, string>> = { POST: 'create', PUT: 'update', PATCH: 'patch' };

function isWatch(query: URLSearchParams): boolean {
  const w = query.get('watch');
  return w === 'true' || w === '1';
}

function verbOf(method: string, info: ResourceRequest, query: URLSearchParams): string {
  const named = info.name !== undefined;
  if (method === 'GET' || method === 'HEAD') return named ? 'get' : isWatch(query) ? 'watch' : 'list';
  if (method === 'DELETE') return named ? 'delete' : 'deletecollection';
  const verb = METHOD_VERBS[method];
  if (verb === undefined) throw errors.methodNotAllowed(`the server does not allow method ${method}`);
  return verb;
}

function authorize(ctx: ServerContext, a: AuthzAttributes): void {
  if (!ctx.authorizer.allowed(a)) throw authorizationForbidden(a, ctx.authorizer.decide(a).reason);
}

const SUBRESOURCE_VERBS: Readonly<Record<string, readonly string[]>> = {
  eviction: ['create'],
  finalize: ['update'],
};

function checkSubresource(info: ResourceRequest, subs: readonly string[], verb: string): void {
  const notAllowed = (): Error =>
    errors.methodNotAllowed('the server does not allow this method on the requested resource');
  if (info.subresource === '') {
    if (info.name === undefined && ['update', 'patch'].includes(verb)) throw notAllowed();
    return;
  }
  if (!subs.includes(info.subresource) || info.name === undefined) throw notFoundPath();
  if (!(SUBRESOURCE_VERBS[info.subresource] ?? ['get', 'update', 'patch']).includes(verb)) throw notAllowed();
}

/** The name RBAC sees: the URL's, or for a list/watch of one name (`fieldSelector=metadata.name=<n>`) that. */
function authorizedName(info: ResourceRequest, verb: string, query: URLSearchParams): string {
  if (info.name !== undefined) return info.name;
  if (verb !== 'list' && verb !== 'watch') return '';
  return nameFromFieldSelector(query.get('fieldSelector')) ?? '';
}

function fieldSelectorOf(verb: string, query: URLSearchParams): { fieldSelector?: string } {
  const s = query.get('fieldSelector');
  return s !== null && (verb === 'list' || verb === 'watch') ? { fieldSelector: s } : {};
}

/** What the authorizers are asked about a resource request. */
function attributesOf(
  info: ResourceRequest,
  user: RequestUser,
  verb: string,
  req: { url: string; query: URLSearchParams },
): AuthzAttributes {
  return {
    user,
    verb,
    path: req.url,
    resource: {
      group: info.group,
      resource: info.plural,
      subresource: info.subresource,
      namespace: info.namespace ?? '',
      name: authorizedName(info, verb, req.query),
      ...fieldSelectorOf(verb, req.query),
    },
  };
}

async function serveResource(
  x: Exchange,
  info: ResourceRequest,
  user: RequestUser,
  query: URLSearchParams,
): Promise<void> {
  const { ctx, req, res } = x;
  const type = ctx.registry.find(info.group, info.version, info.plural);
  if (!type || (!type.namespaced && info.namespace !== undefined)) throw notFoundPath();
  const verb = verbOf(req.method ?? 'GET', info, query);
  checkSubresource(info, type.subresources, verb);
  const attributes = attributesOf(info, user, verb, { url: req.url ?? '', query });
  authorize(ctx, attributes);
  if (info.subresource === 'approval') authorizeApproval(ctx, user, info.name ?? '');
  const r = { group: info.group, resource: info.plural, subresource: info.subresource };
  admitNodeDeletion(ctx, { ...r, namespace: info.namespace ?? '', name: info.name ?? '', user, verb });
  await handleResource({ ctx, req, res, info, type, user, query, verb });
}

/** `nodes/<name>/proxy/...`: authorized as the `nodes/proxy` subresource, then forwarded to the kubelet. */
async function proxyNode(x: Exchange, info: ResourceRequest, user: RequestUser, url: URL): Promise<void> {
  authorize(x.ctx, nodeProxyAttributes(info, user, x.req.method ?? 'GET', url.pathname));
  await serveNodeProxy(x.ctx, { req: x.req, res: x.res, url }, info);
}

function authenticate(x: Exchange): RequestUser {
  const who = x.authn.authenticate(x.req);
  if (who === 'invalid' || who === undefined) throw errors.unauthorized();
  return impersonate(x.ctx, x.req, who);
}

/** The request pipeline: faults, authentication, non-resource paths, authorization, resource handling. */
export async function handleRequest(x: Exchange): Promise<void> {
  try {
    const url = new URL(x.req.url ?? '/', 'https://sim.invalid');
    const method = x.req.method ?? 'GET';
    await x.ctx.faults.before(method, url.pathname, isWatch(url.searchParams));
    const user = authenticate(x);
    const watch = isWatch(url.searchParams);
    const logged = x.ctx.requests?.record({
      method,
      path: url.pathname,
      query: url.search.slice(1),
      watch,
      user: user.name,
    });
    if (logged) x.res.once('finish', () => (logged.status = x.res.statusCode));
    const info = parseRequestPath(url.pathname);
    if (info.kind === 'resource') {
      await (isNodeProxy(info)
        ? proxyNode(x, info, user, url)
        : serveResource(x, info, user, url.searchParams));
      return;
    }
    authorize(x.ctx, { user, verb: method === 'GET' ? 'get' : 'post', path: url.pathname });
    if (!serveNonResource(x.ctx.registry, x.req, x.res, x.host)) throw notFoundPath();
  } catch (e) {
    sendError(x.res, e);
  }
}
