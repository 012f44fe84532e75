import type { JsonObject } from './json.js';
import type { JsonSchema } from './prune.js';

/** Everything the server needs to know to serve one resource (built-in or from a CRD). */
export interface ResourceType {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  /** Subresources served besides the main resource: status, scale, approval, eviction, finalize. */
  readonly subresources: readonly string[];
  /** Field selectors beyond metadata.name / metadata.namespace. */
  readonly fieldSelectors: readonly string[];
  /** Built-in kinds accept strategic merge patches; custom resources get 415. */
  readonly builtin: boolean;
  /** Whether metadata.generation is maintained (bumped on non-metadata, non-status changes). */
  readonly generation: boolean;
  /** Whether a create keeps `.status` (Node does; CSR, Pod and custom resources with /status do not). */
  readonly keepStatusOnCreate: boolean;
  /** Structural schema of a custom resource (pruning); undefined for built-ins. */
  readonly schema?: JsonSchema;
  /** The CRD that serves this type. */
  readonly crdName?: string;
  /** A create-only review (SelfSubjectAccessReview, ...): answered, never stored. */
  readonly review?: boolean;
  /** A CRD version's additionalPrinterColumns (name, type, jsonPath, priority). */
  readonly printerColumns?: readonly JsonObject[];
  /** A CRD version's `subresources.scale`: where the scale subresource reads and writes replicas. */
  readonly scale?: ScalePaths;
}

/** The JSON paths of a CRD's scale subresource (`.spec.replicas` style, leading dot optional). */
export interface ScalePaths {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

export function groupVersion(t: Pick<ResourceType, 'group' | 'version'>): string {
  return t.group === '' ? t.version : `${t.group}/${t.version}`;
}

export function typeKey(t: Pick<ResourceType, 'group' | 'version' | 'plural'>): string {
  return `${t.group}/${t.version}/${t.plural}`;
}

/** Group/resource, the key shared by all versions of a resource (storage is per group/resource). */
export function groupResource(t: Pick<ResourceType, 'group' | 'plural'>): string {
  return `${t.plural}.${t.group}`;
}

export function hasStatus(t: ResourceType): boolean {
  return t.subresources.includes('status');
}

interface TypeInput {
  readonly group?: string;
  readonly version?: string;
  readonly kind: string;
  readonly plural?: string;
  readonly namespaced?: boolean;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly subresources?: readonly string[];
  readonly fieldSelectors?: readonly string[];
  readonly generation?: boolean;
  readonly keepStatusOnCreate?: boolean;
  readonly review?: boolean;
}

const DEFAULTS = {
  group: '',
  version: 'v1',
  namespaced: true,
  shortNames: [],
  categories: [],
  subresources: [],
  fieldSelectors: [],
  generation: false,
  keepStatusOnCreate: false,
} as const;

/** A built-in type with sensible defaults (plural = lower-case kind + "s"). */
export function builtinType(i: TypeInput): ResourceType {
  const singular = i.kind.toLowerCase();
  return { ...DEFAULTS, plural: `${singular}s`, ...i, singular, builtin: true };
}
