import type { ManifestDoc } from './manifest-files.js';

/** The scope of grants made in the operator's own namespace, whatever that namespace is called. */
export const OPERATOR_NAMESPACE = '<operator-namespace>';
/** The scope of cluster-wide grants. */
export const CLUSTER = '*';

export interface PolicyRule {
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly verbs?: readonly string[];
  readonly resourceNames?: readonly string[];
}

/**
 * Flattens rules to one string per permission: `scope|apiGroup|resource|verb|resourceName`, with `*` for
 * "any name". Two RBAC definitions grant the same thing exactly when their sets are equal, however their
 * rules are split, ordered or merged.
 */
export function ruleGrants(rules: readonly PolicyRule[], scope: string): string[] {
  return rules.flatMap((r) =>
    (r.apiGroups ?? []).flatMap((g) =>
      (r.resources ?? []).flatMap((res) =>
        (r.verbs ?? []).flatMap((v) =>
          (r.resourceNames?.length ? r.resourceNames : ['*']).map((n) => [scope, g, res, v, n].join('|')),
        ),
      ),
    ),
  );
}

export interface Subject {
  readonly name: string;
  readonly namespace: string;
}

function bindsSubject(binding: Record<string, unknown>, sa: Subject): boolean {
  const subjects = (binding['subjects'] ?? []) as { kind?: string; name?: string; namespace?: string }[];
  return subjects.some(
    (s) => s.kind === 'ServiceAccount' && s.name === sa.name && s.namespace === sa.namespace,
  );
}

function meta(o: Record<string, unknown>): { name?: string; namespace?: string } {
  const m = o['metadata'];
  return typeof m === 'object' && m !== null ? m : {};
}

/**
 * The permissions a ServiceAccount gets from plain RBAC objects: every (Cluster)Role bound to it by a
 * (Cluster)RoleBinding. Grants in `sa.namespace` are scoped OPERATOR_NAMESPACE. Throws when a binding
 * names a role that is not among `docs`.
 */
export function boundGrants(docs: readonly ManifestDoc[], sa: Subject): Set<string> {
  const objects = docs.map((d) => d.object);
  const find = (kind: string, name: string, ns?: string): Record<string, unknown> => {
    const o = objects.find((x) => x['kind'] === kind && meta(x).name === name && meta(x).namespace === ns);
    if (!o) throw new Error(`a binding refers to ${kind} ${ns ? `${ns}/` : ''}${name}, which is not defined`);
    return o;
  };
  const grants = new Set<string>();
  for (const b of objects.filter((o) => /^(Cluster)?RoleBinding$/.test(String(o['kind'])))) {
    if (!bindsSubject(b, sa)) continue;
    const ref = b['roleRef'] as { kind: string; name: string };
    const ns = b['kind'] === 'RoleBinding' ? meta(b).namespace : undefined;
    const role = find(ref.kind, ref.name, ref.kind === 'Role' ? ns : undefined);
    const scope = ns === undefined ? CLUSTER : ns === sa.namespace ? OPERATOR_NAMESPACE : ns;
    ruleGrants((role['rules'] ?? []) as PolicyRule[], scope).forEach((g) => grants.add(g));
  }
  return grants;
}

interface CsvPermission {
  readonly serviceAccountName: string;
  readonly rules: readonly PolicyRule[];
}

/** The permissions a CSV gives a ServiceAccount: clusterPermissions cluster-wide, permissions in its namespace. */
export function csvGrants(csv: Record<string, unknown>, serviceAccountName: string): Set<string> {
  const install = (((csv['spec'] as Record<string, unknown>)['install'] ?? {}) as Record<string, unknown>)[
    'spec'
  ];
  const spec = (install ?? {}) as { clusterPermissions?: CsvPermission[]; permissions?: CsvPermission[] };
  const pick = (list: CsvPermission[] | undefined, scope: string): string[] =>
    (list ?? [])
      .filter((p) => p.serviceAccountName === serviceAccountName)
      .flatMap((p) => ruleGrants(p.rules, scope));
  return new Set([...pick(spec.clusterPermissions, CLUSTER), ...pick(spec.permissions, OPERATOR_NAMESPACE)]);
}

/**
 * What plain-RBAC grants become in an OLM bundle. registry+v1 can only create Roles in the install
 * namespace, so a grant in another namespace (openshift-config, …) becomes cluster-wide; it keeps its
 * resourceNames, so only `create` really widens. docs/adr/0002 explains the choice.
 */
export function foldForOlm(grants: ReadonlySet<string>): Set<string> {
  return new Set(
    [...grants].map((g) => {
      const [scope, ...rest] = g.split('|');
      return scope === CLUSTER || scope === OPERATOR_NAMESPACE ? g : [CLUSTER, ...rest].join('|');
    }),
  );
}

/** Grants that use a wildcard group, resource or verb (never acceptable in least-privilege RBAC). */
export function wildcardGrants(grants: ReadonlySet<string>): string[] {
  return [...grants].filter((g) => g.split('|').slice(1, 4).includes('*'));
}
