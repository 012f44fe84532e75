import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authenticator } from './authn.js';
import { sendError } from './http-io.js';
import { notFoundPath, serveNonResource } from './non-resource.js';
import { RbacAuthorizer, type AuthzAttributes } from './rbac.js';
import type { RequestUser } from './request-user.js';
import { parseRequestPath, type ResourceRequest } from './request-info.js';
import { handleResource } from './resource-handler.js';
import type { ServerContext } from './server-context.js';
import { ApiError, errors } from './status.js';
import { authorizeApproval } from './approval-authz.js';

function verbOf(method: string, info: ResourceRequest, query: URLSearchParams): string {
  const w = query.get('watch');
  const watching = w === 'true' || w === '1';
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (info.name !== undefined) return 'get';
      return watching ? 'watch' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return info.name === undefined ? 'deletecollection' : 'delete';
    default:
      throw errors.methodNotAllowed(`the server does not allow method ${method}`);
  }
}

function authorize(ctx: ServerContext, a: AuthzAttributes): void {
  if (ctx.authorizer && !ctx.authorizer.allowed(a)) throw errors.forbidden(RbacAuthorizer.forbiddenMessage(a));
}

function checkSubresource(info: ResourceRequest, subs: readonly string[], verb: string): void {
  if (info.subresource === '') {
    if (info.name === undefined && ['update', 'patch'].includes(verb)) throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
    return;
  }
  if (!subs.includes(info.subresource) || info.name === undefined) throw notFoundPath();
  const allowed = info.subresource === 'eviction' ? ['create'] : info.subresource === 'finalize' ? ['update'] : ['get', 'update', 'patch'];
  if (!allowed.includes(verb)) throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
}

async function serveResource(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, info: ResourceRequest, user: RequestUser, query: URLSearchParams): Promise<void> {
  const type = ctx.registry.find(info.group, info.version, info.plural);
  if (!type) throw notFoundPath();
  if (!type.namespaced && info.namespace !== undefined) throw notFoundPath();
  const verb = verbOf(req.method ?? 'GET', info, query);
  checkSubresource(info, type.subresources, verb);
  const attrs: AuthzAttributes = {
    user,
    verb,
    path: req.url ?? '',
    resource: { group: info.group, resource: info.plural, subresource: info.subresource, namespace: info.namespace ?? '', name: info.name ?? '' },
  };
  authorize(ctx, attrs);
  if (info.subresource === 'approval' && ctx.authorizer) authorizeApproval(ctx, user, info.name ?? '');
  await handleResource({ ctx, req, res, info, type, user, query, verb });
}

/** The request pipeline: faults, authentication, non-resource paths, authorization, resource handling. */
export async function handleRequest(ctx: ServerContext, authn: Authenticator, req: IncomingMessage, res: ServerResponse, host: string): Promise<void> {
  try {
    const url = new URL(req.url ?? '/', 'https://sim.invalid');
    const w = url.searchParams.get('watch');
    await ctx.faults.before(req.method ?? 'GET', url.pathname, w === 'true' || w === '1');
    const who = authn.authenticate(req);
    if (who === 'invalid') throw errors.unauthorized();
    const user: RequestUser = who ?? { name: 'system:anonymous', groups: ['system:unauthenticated'] };
    const info = parseRequestPath(url.pathname);
    if (info.kind === 'other') {
      if (who === undefined) throw errors.unauthorized();
      authorize(ctx, { user, verb: (req.method ?? 'GET').toLowerCase() === 'get' ? 'get' : 'post', path: url.pathname });
      if (!serveNonResource(ctx.registry, req, res, url.pathname, host)) throw notFoundPath();
      return;
    }
    if (who === undefined) throw errors.unauthorized();
    await serveResource(ctx, req, res, info, user, url.searchParams);
  } catch (e) {
    sendError(res, e instanceof ApiError ? e : e);
  }
}
