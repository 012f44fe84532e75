import type { IncomingMessage } from 'node:http';
import type { AuthzAttributes } from './rbac.js';
import type { RequestUser } from './request-user.js';
import type { ServerContext } from './server-context.js';
import { errors } from './status.js';

function headerList(req: IncomingMessage, name: string): string[] {
  const v = req.headers[name];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v])
    .flatMap((x) => x.split(','))
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

function impersonateAttrs(user: RequestUser, resource: string, name: string): AuthzAttributes {
  const sa = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(name);
  const target =
    sa && resource === 'users'
      ? { resource: 'serviceaccounts', namespace: sa[1] ?? '', name: sa[2] ?? '' }
      : { resource, namespace: '', name };
  return { user, verb: 'impersonate', path: '', resource: { group: '', subresource: '', ...target } };
}

function forbidden(user: RequestUser, a: AuthzAttributes): Error {
  const r = a.resource;
  const res = r?.resource ?? '';
  return errors.forbidden(
    `${res} "${r?.name ?? ''}" is forbidden: User "${user.name}" cannot impersonate resource "${res}" in API group "" at the cluster scope`,
  );
}

/**
 * `Impersonate-User` / `Impersonate-Group` (kubectl `--as`, `--as-group`): the requester needs the
 * `impersonate` verb on users (or serviceaccounts) and groups; the request then runs as that user, who is
 * also in `system:authenticated`.
 */
export function impersonate(ctx: ServerContext, req: IncomingMessage, user: RequestUser): RequestUser {
  const as = headerList(req, 'impersonate-user')[0];
  const groups = headerList(req, 'impersonate-group');
  if (as === undefined) {
    if (groups.length > 0)
      throw errors.badRequest('requested impersonation of groups without impersonating a user');
    return user;
  }
  const checks = [
    impersonateAttrs(user, 'users', as),
    ...groups.map((g) => impersonateAttrs(user, 'groups', g)),
  ];
  const denied = checks.find((a) => !ctx.authorizer.allowed(a));
  if (denied) throw forbidden(user, denied);
  const sa = /^system:serviceaccount:([^:]+):/.exec(as);
  const implied = sa ? ['system:serviceaccounts', `system:serviceaccounts:${sa[1] ?? ''}`] : [];
  return { name: as, groups: [...new Set([...groups, ...implied, 'system:authenticated'])] };
}
