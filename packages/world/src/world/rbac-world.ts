import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoreV1Api, KubeConfig, KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import type { SimWorld } from './sim-world.js';

// Running the operator under deploy/'s RBAC in the simulated world (RBAC enforced): the RBAC objects of
// deploy/, applied as the admin, and a record of what the operator's ServiceAccount was refused and used.

const DEPLOY = fileURLToPath(new URL('../../../../deploy/', import.meta.url));
const RBAC_KINDS = new Set(['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding', 'ServiceAccount']);

/** A client with the operator's ServiceAccount token. */
export function operatorCore(world: SimWorld): CoreV1Api {
  const kc = new KubeConfig();
  kc.loadFromFile(join(world.dir, 'operator.kubeconfig'));
  return kc.makeApiClient(CoreV1Api);
}

/** The RBAC objects of deploy/ (and the ServiceAccount they bind), parsed from its YAML files. */
export async function deployRbac(): Promise<KubernetesObject[]> {
  const files = (await readdir(DEPLOY)).filter((f) => f.endsWith('.yaml')).sort();
  const out: KubernetesObject[] = [];
  for (const f of files) {
    for (const doc of parseAllDocuments(await readFile(join(DEPLOY, f), 'utf8'))) {
      if (doc.errors.length > 0) throw new Error(`${f}: ${doc.errors[0]?.message ?? ''}`);
      const obj = doc.toJS() as KubernetesObject | null;
      if (obj?.kind !== undefined && RBAC_KINDS.has(obj.kind)) out.push(obj);
    }
  }
  return out;
}

/**
 * Creates them as the cluster admin; the ServiceAccount already exists in the simulated cluster. The
 * openshift-cluster-api namespace (seeded by the simulated cluster) is created first where absent, so that
 * deploy/'s Role there applies (ADR 0019).
 */
export async function applyAsAdmin(world: SimWorld, objects: readonly KubernetesObject[]): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  const api = KubernetesObjectApi.makeApiClient(kc);
  await kc
    .makeApiClient(CoreV1Api)
    .createNamespace({ body: { metadata: { name: 'openshift-cluster-api' } } })
    .catch((err: unknown) => {
      if ((err as { code?: number }).code !== 409) throw err;
    });
  for (const o of objects) {
    await api.create(o).catch((err: unknown) => {
      if ((err as { code?: number }).code !== 409) throw err;
    });
  }
}

/** Records every request of the operator's ServiceAccount that RBAC refuses (including swallowed ones). */
export function recordRefusals(world: SimWorld): string[] & { used: Set<string> } {
  const refused = Object.assign([] as string[], { used: new Set<string>() });
  const authorizer = world.cluster.server.ctx.authorizer;
  if (!authorizer.rbac) throw new Error('the simulated API server does not enforce RBAC');
  const operator = world.cluster.operator.user.name;
  const allowed = authorizer.allowed.bind(authorizer);
  authorizer.allowed = (a) => {
    const ok = allowed(a);
    if (a.user.name !== operator) return ok;
    if (!ok) refused.push(`${a.verb} ${a.path}`);
    const r = a.resource;
    if (ok && r)
      refused.used.add(
        `${a.verb} ${r.group === '' ? '' : `${r.group}/`}${r.resource}${r.subresource ? `/${r.subresource}` : ''}`,
      );
    return ok;
  };
  return refused;
}

/** A Role/ClusterRole rule as deploy/ writes it. */
interface Rule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
  resourceNames?: string[];
}

/** The grants (`namespace|group|resource|verb|name`, `*` for any) of the Roles in these namespaces. */
export function roleGrants(objects: readonly KubernetesObject[], namespaces: readonly string[]): string[] {
  return objects
    .filter((o) => o.kind === 'Role' && namespaces.includes(o.metadata?.namespace ?? ''))
    .flatMap((o) =>
      ((o as { rules?: Rule[] }).rules ?? []).flatMap((r) =>
        (r.apiGroups ?? []).flatMap((g) =>
          (r.resources ?? []).flatMap((res) =>
            (r.verbs ?? []).flatMap((v) =>
              (r.resourceNames ?? ['*']).map((n) => `${o.metadata?.namespace ?? ''}|${g}|${res}|${v}|${n}`),
            ),
          ),
        ),
      ),
    );
}

/** Every request of the operator's ServiceAccount that RBAC allowed, as `namespace|group|resource|verb|name`. */
export function recordAllowed(world: SimWorld): Set<string> {
  const used = new Set<string>();
  const authorizer = world.cluster.server.ctx.authorizer;
  if (!authorizer.rbac) throw new Error('the simulated API server does not enforce RBAC');
  const operator = world.cluster.operator.user.name;
  const allowed = authorizer.allowed.bind(authorizer);
  authorizer.allowed = (a) => {
    const ok = allowed(a);
    const r = a.resource;
    if (ok && r && a.user.name === operator) {
      const res = r.subresource ? `${r.resource}/${r.subresource}` : r.resource;
      used.add(`${r.namespace || '*'}|${r.group}|${res}|${a.verb}|${r.name || '*'}`);
    }
    return ok;
  };
  return used;
}

/** Whether a request recorded by recordAllowed was allowed by this grant. */
export function usedBy(grant: string, used: ReadonlySet<string>): boolean {
  const [ns, group, res, verb, name] = grant.split('|');
  return [...used].some((u) => {
    const [uns, ug, ur, uv, un] = u.split('|');
    return uns === ns && ug === group && ur === res && uv === verb && (name === '*' || un === name);
  });
}
