import type { CoreV1Api, V1ConfigMap } from '@kubernetes/client-node';

/** A CoreV1Api for one ConfigMap, as an API server keeps it, and the calls made to it. */
export interface OneConfigMap {
  readonly api: CoreV1Api;
  /** `read`, `replace`, `create`, and `patch` (with `patchKeys`: `patch <key>,<key>`), in call order. */
  readonly calls: string[];
  readonly data: () => Record<string, string>;
}

/**
 * A CoreV1Api holding `initial` (undefined: the ConfigMap does not exist, reads and patches get 404),
 * applying JSON merge patches of `data` as the API server does (a null deletes its key).
 */
export function oneConfigMap(
  initial: V1ConfigMap | undefined,
  o: { patchKeys?: boolean } = {},
): OneConfigMap {
  let cm = initial;
  const calls: string[] = [];
  const notFound = (): Promise<never> => Promise.reject(Object.assign(new Error('not found'), { code: 404 }));
  const keep = (label: string, body: V1ConfigMap): Promise<V1ConfigMap> => {
    calls.push(label);
    cm = body;
    return Promise.resolve(cm);
  };
  const api = {
    readNamespacedConfigMap: () => {
      calls.push('read');
      return cm ? Promise.resolve(structuredClone(cm)) : notFound();
    },
    replaceNamespacedConfigMap: (r: { body: V1ConfigMap }) => keep('replace', r.body),
    createNamespacedConfigMap: (r: { body: V1ConfigMap }) => keep('create', r.body),
    patchNamespacedConfigMap: (r: { body: { data: Record<string, string | null> } }) => {
      calls.push(o.patchKeys ? `patch ${Object.keys(r.body.data).join(',')}` : 'patch');
      if (!cm) return notFound();
      const data = { ...cm.data };
      for (const [k, v] of Object.entries(r.body.data))
        if (v === null) delete data[k];
        else data[k] = v;
      cm = { ...cm, data };
      return Promise.resolve(cm);
    },
  } as unknown as CoreV1Api;
  return { api, calls, data: () => cm?.data ?? {} };
}
