import { isObject, meta, str, strList, type JsonObject } from './json.js';
import type { ObjectStore } from './object-store.js';
import type { RequestUser } from './request-user.js';
import type { TypeRegistry } from './type-registry.js';

/** What is being asked, in the terms of RBAC rules. */
export interface AuthzAttributes {
  readonly user: RequestUser;
  readonly verb: string;
  /** undefined for a non-resource request (`/version`, `/api`, `/healthz`). */
  readonly resource?: {
    readonly group: string;
    readonly resource: string;
    readonly subresource: string;
    readonly namespace: string;
    readonly name: string;
    /** The list/watch field selector, for the Node authorizer's `spec.nodeName=<node>` pod lists. */
    readonly fieldSelector?: string;
  };
  readonly path: string;
}

function has(list: readonly string[], v: string): boolean {
  return list.includes('*') || list.includes(v);
}

function resourceMatches(rule: JsonObject, a: NonNullable<AuthzAttributes['resource']>): boolean {
  const resources = strList(rule['resources']);
  const full = a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`;
  const resOk =
    resources.includes('*') ||
    resources.includes(full) ||
    (a.subresource !== '' && resources.includes(`*/${a.subresource}`));
  if (!resOk || !has(strList(rule['apiGroups']), a.group)) return false;
  const names = strList(rule['resourceNames']);
  return names.length === 0 || (a.name !== '' && names.includes(a.name));
}

function nonResourceMatches(rule: JsonObject, path: string): boolean {
  return strList(rule['nonResourceURLs']).some(
    (u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1))),
  );
}

export function ruleAllows(rule: JsonObject, a: AuthzAttributes): boolean {
  if (!has(strList(rule['verbs']), a.verb)) return false;
  return a.resource ? resourceMatches(rule, a.resource) : nonResourceMatches(rule, a.path);
}

function subjectMatches(s: JsonObject, u: RequestUser, bindingNs: string): boolean {
  const name = str(s['name']) ?? '';
  switch (str(s['kind'])) {
    case 'User':
      return name === u.name;
    case 'Group':
      return u.groups.includes(name);
    case 'ServiceAccount':
      return u.name === `system:serviceaccount:${str(s['namespace']) ?? bindingNs}:${name}`;
    default:
      return false;
  }
}

/**
 * RBAC as kube-apiserver evaluates it: the union of the rules of every ClusterRoleBinding and of every
 * RoleBinding in the request's namespace whose subjects include the user. `system:masters` is always
 * allowed (as the real server's superuser group). Aggregated ClusterRoles are not computed.
 */
export class RbacAuthorizer {
  constructor(
    private readonly store: ObjectStore,
    private readonly registry: TypeRegistry,
  ) {}

  private rulesOf(kind: string, name: string, ns: string): JsonObject[] {
    const plural = kind === 'ClusterRole' ? 'clusterroles' : 'roles';
    const t = this.registry.mustFind('rbac.authorization.k8s.io', 'v1', plural);
    const role = this.store.get(t, kind === 'ClusterRole' ? undefined : ns, name);
    const rules = role?.['rules'];
    return Array.isArray(rules) ? rules.filter(isObject) : [];
  }

  private bindings(plural: string, ns: string | undefined): JsonObject[] {
    const t = this.registry.mustFind('rbac.authorization.k8s.io', 'v1', plural);
    return this.store.all(t).filter((b) => ns === undefined || str(meta(b)['namespace']) === ns);
  }

  private bindingAllows(b: JsonObject, a: AuthzAttributes, ns: string): boolean {
    const subjects = Array.isArray(b['subjects']) ? b['subjects'].filter(isObject) : [];
    if (!subjects.some((s) => subjectMatches(s, a.user, ns))) return false;
    const ref = isObject(b['roleRef']) ? b['roleRef'] : {};
    return this.rulesOf(str(ref['kind']) ?? '', str(ref['name']) ?? '', ns).some((r) => ruleAllows(r, a));
  }

  allowed(a: AuthzAttributes): boolean {
    if (a.user.groups.includes('system:masters')) return true;
    if (this.bindings('clusterrolebindings', undefined).some((b) => this.bindingAllows(b, a, '')))
      return true;
    const ns = a.resource?.namespace ?? '';
    if (ns === '') return false;
    return this.bindings('rolebindings', ns).some((b) => this.bindingAllows(b, a, ns));
  }
}
