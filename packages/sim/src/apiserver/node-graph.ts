import { isObject, meta, str, type JsonObject } from './json.js';
import type { ObjectStore } from './object-store.js';
import type { TypeRegistry } from './type-registry.js';

/** What a pod refers to, as the Node authorizer's graph records it (graph_populator.go, podutil visitors). */
export interface PodReferences {
  readonly secrets: ReadonlySet<string>;
  readonly configMaps: ReadonlySet<string>;
  readonly claims: ReadonlySet<string>;
  readonly serviceAccount: string;
}

const objs = (v: unknown): JsonObject[] => (Array.isArray(v) ? v.filter(isObject) : []);
const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const nameIn = (v: unknown, key = 'name'): string | undefined => str(obj(v)[key]);

function add(set: Set<string>, name: string | undefined): void {
  if (name !== undefined && name !== '') set.add(name);
}

function fromContainers(spec: JsonObject, secrets: Set<string>, configMaps: Set<string>): void {
  const all = [
    ...objs(spec['containers']),
    ...objs(spec['initContainers']),
    ...objs(spec['ephemeralContainers']),
  ];
  for (const c of all) {
    for (const e of objs(c['envFrom'])) {
      add(secrets, nameIn(e['secretRef']));
      add(configMaps, nameIn(e['configMapRef']));
    }
    for (const e of objs(c['env'])) {
      const from = obj(e['valueFrom']);
      add(secrets, nameIn(from['secretKeyRef']));
      add(configMaps, nameIn(from['configMapKeyRef']));
    }
  }
}

function fromVolumes(
  spec: JsonObject,
  refs: { secrets: Set<string>; configMaps: Set<string>; claims: Set<string> },
): void {
  for (const v of objs(spec['volumes'])) {
    add(refs.secrets, nameIn(v['secret'], 'secretName'));
    add(refs.configMaps, nameIn(v['configMap']));
    add(refs.claims, nameIn(v['persistentVolumeClaim'], 'claimName'));
    for (const src of objs(obj(v['projected'])['sources'])) {
      add(refs.secrets, nameIn(src['secret']));
      add(refs.configMaps, nameIn(src['configMap']));
    }
    // Volume plugins that name a Secret (cephfs, rbd, iscsi, flexVolume, scaleIO, storageos, csi...).
    for (const source of Object.values(v).filter(isObject)) {
      add(refs.secrets, nameIn(source['secretRef']));
      add(refs.secrets, nameIn(source['nodePublishSecretRef']));
    }
  }
}

/** The Secrets, ConfigMaps, claims and service account a pod refers to. */
export function podReferences(pod: JsonObject): PodReferences {
  const spec = obj(pod['spec']);
  const refs = { secrets: new Set<string>(), configMaps: new Set<string>(), claims: new Set<string>() };
  for (const s of objs(spec['imagePullSecrets'])) add(refs.secrets, nameIn(s));
  fromContainers(spec, refs.secrets, refs.configMaps);
  fromVolumes(spec, refs);
  return { ...refs, serviceAccount: str(spec['serviceAccountName']) ?? '' };
}

/** The kinds whose relation to a node the graph knows, by resource. */
export type RelatedKind = 'pods' | 'secrets' | 'configmaps' | 'serviceaccounts';

/**
 * Whether the object has a path to the node in the Node authorizer's graph: a pod bound to the node
 * (`spec.nodeName`), or a Secret, ConfigMap or ServiceAccount such a pod refers to in its namespace.
 * Computed from the store at each request, where upstream keeps the graph up to date from informers.
 */
export function relatedToNode(
  store: ObjectStore,
  registry: TypeRegistry,
  target: { readonly kind: RelatedKind; readonly namespace: string; readonly name: string },
  node: string,
): boolean {
  const pods = store
    .all(registry.mustFind('', 'v1', 'pods'))
    .filter(
      (p) => str(meta(p)['namespace']) === target.namespace && str(obj(p['spec'])['nodeName']) === node,
    );
  const { kind, name } = target;
  if (kind === 'pods') return pods.some((p) => str(meta(p)['name']) === name);
  return pods.some((p) => {
    const refs = podReferences(p);
    if (kind === 'secrets') return refs.secrets.has(name);
    if (kind === 'configmaps') return refs.configMaps.has(name);
    return refs.serviceAccount === name;
  });
}
