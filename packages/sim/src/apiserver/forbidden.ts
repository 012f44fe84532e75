import type { AuthzAttributes } from './rbac.js';
import { ApiError } from './status.js';

/** `resource.group`, as apimachinery's GroupResource.String() prints it. */
function qualified(resource: string, group: string): string {
  return group === '' ? resource : `${resource}.${group}`;
}

/**
 * The 403 of a refused write or read, as apimachinery's `NewForbidden(groupResource, name, err)` words it
 * (`<resource>[.<group>] ["<name>"] is forbidden: <err>`), with the group, kind and name in its details.
 * Admission plugins (NodeRestriction) refuse with this shape too (`admission.NewForbidden`).
 */
export function forbiddenOn(resource: string, group: string, name: string, err: string): ApiError {
  const what = qualified(resource, group);
  const message = name === '' ? `${what} is forbidden: ${err}` : `${what} "${name}" is forbidden: ${err}`;
  return new ApiError(403, 'Forbidden', message, { name, group, kind: resource });
}

/**
 * The 403 of a refused request (responsewriters/errors.go `ForbiddenStatusError`): what the user may not
 * do, then `: <reason>` when the authorizers gave one (the Node authorizer's, e.g. `no relationship found
 * between node 'a' and this object`).
 */
export function authorizationForbidden(a: AuthzAttributes, reason: string): ApiError {
  const user = a.user.name;
  const r = a.resource;
  if (!r) {
    const msg = `User "${user}" cannot ${a.verb} path "${a.path}"`;
    return new ApiError(403, 'Forbidden', `forbidden: ${reason === '' ? msg : `${msg}: ${reason}`}`);
  }
  const res = r.subresource === '' ? r.resource : `${r.resource}/${r.subresource}`;
  const scope = r.namespace === '' ? 'at the cluster scope' : `in the namespace "${r.namespace}"`;
  const msg = `User "${user}" cannot ${a.verb} resource "${res}" in API group "${r.group}" ${scope}`;
  return forbiddenOn(r.resource, r.group, r.name, reason === '' ? msg : `${msg}: ${reason}`);
}
