import { PatchStrategy, setHeaderOptions, type CoreV1Api, type V1Node } from '@kubernetes/client-node';

/** What the operator writes on a Node: labels, annotations and the cordon (`null` removes a key). */
export interface NodeMergePatch {
  readonly metadata?: {
    readonly labels?: Readonly<Record<string, string | null>>;
    readonly annotations?: Readonly<Record<string, string | null>>;
  };
  readonly spec?: { readonly unschedulable: boolean | null };
}

const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/**
 * The one way the operator writes a Node: a JSON merge patch (RFC 7386), so only the keys named change and
 * a `null` removes one; the kubelet's own writes to the same Node are left as they are.
 */
export function mergePatchNode(api: CoreV1Api, name: string, body: NodeMergePatch): Promise<V1Node> {
  return api.patchNode({ name, body }, MERGE_PATCH);
}
