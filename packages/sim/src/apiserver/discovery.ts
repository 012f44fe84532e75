import { groupVersion, type ResourceType } from './resource-type.js';
import type { TypeRegistry } from './type-registry.js';

/** The version the fake reports: kubectl's dispatcher picks its built-in v1.32 client for minor 36 (kubectl-needs §0). */
export const SERVER_VERSION = {
  major: '1',
  minor: '36',
  gitVersion: 'v1.36.0-wmco-sim',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-01-01T00:00:00Z',
  goVersion: 'go1.25.0',
  compiler: 'gc',
  platform: 'linux/amd64',
} as const;

export const AGGREGATED_CONTENT_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function verbsOf(t: ResourceType): readonly string[] {
  return t.review === true ? ['create'] : ALL_VERBS;
}

interface SubresourceShape {
  readonly verbs: readonly string[];
  readonly group?: string;
  readonly version?: string;
  readonly kind?: string;
}

function subresourceShape(t: ResourceType, sub: string): SubresourceShape {
  switch (sub) {
    case 'eviction':
      return { verbs: ['create'], group: 'policy', version: 'v1', kind: 'Eviction' };
    case 'finalize':
      return { verbs: ['update'] };
    case 'log':
      return { verbs: ['get'], kind: 'Pod' };
    case 'scale':
      // A CRD's scale subresource speaks autoscaling/v1 Scale, and discovery says so: kubectl's scale
      // client resolves the Scale kind from this entry.
      return { verbs: ['get', 'patch', 'update'], group: 'autoscaling', version: 'v1', kind: 'Scale' };
    default:
      return { verbs: ['get', 'patch', 'update'], kind: t.kind };
  }
}

/** `/apis` aggregated wants the newest version first; we serve one version per group here. */
function aggregatedResource(t: ResourceType): Record<string, unknown> {
  return {
    resource: t.plural,
    responseKind: { group: '', version: '', kind: t.kind },
    scope: t.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: t.singular,
    verbs: verbsOf(t),
    ...(t.shortNames.length > 0 ? { shortNames: t.shortNames } : {}),
    ...(t.categories.length > 0 ? { categories: t.categories } : {}),
    subresources: t.subresources.map((sub) => {
      const s = subresourceShape(t, sub);
      return {
        subresource: sub,
        responseKind: { group: s.group ?? '', version: s.version ?? '', kind: s.kind ?? t.kind },
        verbs: s.verbs,
      };
    }),
  };
}

function groupTypes(reg: TypeRegistry, group: string): Map<string, ResourceType[]> {
  const out = new Map<string, ResourceType[]>();
  for (const t of reg.all().filter((x) => x.group === group))
    out.set(t.version, [...(out.get(t.version) ?? []), t]);
  return out;
}

export function aggregatedDiscovery(reg: TypeRegistry, legacy: boolean): Record<string, unknown> {
  const groups = [...reg.groups().keys()].filter((g) => (g === '') === legacy).sort();
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: groups.map((g) => ({
      metadata: g === '' ? {} : { name: g },
      versions: [...groupTypes(reg, g).entries()].map(([version, types]) => ({
        version,
        freshness: 'Current',
        resources: types.map(aggregatedResource),
      })),
    })),
  };
}

export function legacyApiVersions(serverAddress: string): Record<string, unknown> {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function apiGroup(g: string, versions: readonly string[]): Record<string, unknown> {
  const vs = versions.map((v) => ({ groupVersion: `${g}/${v}`, version: v }));
  return { kind: 'APIGroup', apiVersion: 'v1', name: g, versions: vs, preferredVersion: vs[0] };
}

export function legacyGroupList(reg: TypeRegistry): Record<string, unknown> {
  const groups = [...reg.groups().entries()].filter(([g]) => g !== '').sort(([a], [b]) => a.localeCompare(b));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map(([g, vs]) => apiGroup(g, vs)) };
}

export function legacyGroup(reg: TypeRegistry, group: string): Record<string, unknown> | undefined {
  const vs = reg.groups().get(group);
  return vs === undefined || group === '' ? undefined : apiGroup(group, vs);
}

export function resourceList(
  reg: TypeRegistry,
  group: string,
  version: string,
): Record<string, unknown> | undefined {
  const types = reg.all().filter((t) => t.group === group && t.version === version);
  if (types.length === 0) return undefined;
  const resources = types.flatMap((t) => [
    {
      name: t.plural,
      singularName: t.singular,
      namespaced: t.namespaced,
      kind: t.kind,
      verbs: verbsOf(t),
      ...(t.shortNames.length > 0 ? { shortNames: t.shortNames } : {}),
      ...(t.categories.length > 0 ? { categories: t.categories } : {}),
    },
    ...t.subresources.map((sub) => {
      const s = subresourceShape(t, sub);
      return {
        name: `${t.plural}/${sub}`,
        singularName: '',
        namespaced: t.namespaced,
        ...(s.group !== undefined ? { group: s.group, version: s.version } : {}),
        kind: s.kind ?? t.kind,
        verbs: s.verbs,
      };
    }),
  ]);
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: groupVersion({ group, version }),
    resources,
  };
}
