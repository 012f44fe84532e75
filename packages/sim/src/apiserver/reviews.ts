import { parseObjectBody, readBody, sendJson } from './http-io.js';
import { isObject, str, strList, type JsonObject } from './json.js';
import type { AuthzAttributes } from './rbac.js';
import type { RequestUser } from './request-user.js';
import type { ResourceCall } from './resource-handler.js';
import { groupVersion } from './resource-type.js';

/**
 * The create-only review APIs kubectl uses: SelfSubjectAccessReview (`auth can-i`), SubjectAccessReview
 * and SelfSubjectReview (`auth whoami`). Answered from the authorizer (everything allowed when RBAC is off).
 */
function field(o: JsonObject, key: string): string {
  return str(o[key]) ?? '';
}

function attributes(user: RequestUser, spec: JsonObject): AuthzAttributes {
  const ra = spec['resourceAttributes'];
  if (!isObject(ra)) {
    const nra = isObject(spec['nonResourceAttributes']) ? spec['nonResourceAttributes'] : {};
    return { user, verb: field(nra, 'verb'), path: field(nra, 'path') };
  }
  const [group, resource, subresource, namespace, name] = [
    'group',
    'resource',
    'subresource',
    'namespace',
    'name',
  ].map((k) => field(ra, k));
  return {
    user,
    verb: field(ra, 'verb'),
    path: '',
    resource: {
      group: group ?? '',
      resource: resource ?? '',
      subresource: subresource ?? '',
      namespace: namespace ?? '',
      name: name ?? '',
    },
  };
}

function subject(c: ResourceCall, spec: JsonObject): RequestUser {
  if (c.type.kind !== 'SubjectAccessReview') return c.user;
  return { name: str(spec['user']) ?? '', groups: strList(spec['groups']) };
}

/**
 * TokenReview: the token authenticator's answer for `spec.token` (static tokens, service-account and
 * bootstrap tokens), as kube-apiserver gives it to a webhook authenticator such as kube-rbac-proxy.
 */
function tokenReview(c: ResourceCall, spec: JsonObject, head: JsonObject): void {
  const user = c.ctx.lookupToken?.(str(spec['token']) ?? '');
  const audiences = strList(spec['audiences']);
  const status = user
    ? {
        authenticated: true,
        user: { username: user.name, groups: user.groups, ...(user.uid ? { uid: user.uid } : {}) },
        ...(audiences.length > 0 ? { audiences } : {}),
      }
    : { authenticated: false, error: 'invalid bearer token' };
  sendJson(c.res, 201, { ...head, spec, status });
}

export async function review(c: ResourceCall): Promise<void> {
  const body = parseObjectBody(c.req, await readBody(c.req));
  const head = { apiVersion: groupVersion(c.type), kind: c.type.kind, metadata: { creationTimestamp: null } };
  if (c.type.kind === 'TokenReview') {
    tokenReview(c, isObject(body['spec']) ? body['spec'] : {}, head);
    return;
  }
  if (c.type.kind === 'SelfSubjectReview') {
    sendJson(c.res, 201, {
      ...head,
      status: {
        userInfo: {
          username: c.user.name,
          groups: c.user.groups,
          ...(c.user.uid ? { uid: c.user.uid } : {}),
        },
      },
    });
    return;
  }
  const spec = isObject(body['spec']) ? body['spec'] : {};
  const allowed = c.ctx.authorizer.allowed(attributes(subject(c, spec), spec));
  sendJson(c.res, 201, {
    ...head,
    spec,
    status: { allowed, ...(allowed ? { reason: 'allowed by RBAC' } : {}) },
  });
}
