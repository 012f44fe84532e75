/** What a request URL addresses, parsed the way kube-apiserver's RequestInfoFactory does. */
export interface ResourceRequest {
  readonly kind: 'resource';
  readonly group: string;
  readonly version: string;
  readonly namespace: string | undefined;
  readonly plural: string;
  readonly name: string | undefined;
  readonly subresource: string;
}

export interface OtherRequest {
  readonly kind: 'other';
  readonly path: string;
}

export type RequestInfo = ResourceRequest | OtherRequest;

/** Splits off `api` or `apis/<group>`; undefined when the path addresses no resource. */
function groupAndRest(parts: readonly string[]): { group: string; rest: string[] } | undefined {
  if (parts[0] === 'api' && parts.length >= 3) return { group: '', rest: parts.slice(1) };
  if (parts[0] === 'apis' && parts.length >= 4) return { group: parts[1] ?? '', rest: parts.slice(2) };
  return undefined;
}

/** Parses `/api/v1/...` and `/apis/<group>/<version>/...`; anything else (discovery, /version) is 'other'. */
export function parseRequestPath(path: string): RequestInfo {
  const parts = path
    .split('/')
    .filter((p) => p !== '')
    .map(decodeURIComponent);
  const gr = groupAndRest(parts);
  if (!gr) return { kind: 'other', path };
  let segs = gr.rest.slice(1);
  let namespace: string | undefined;
  // namespaces/<ns>/<plural>... is namespaced; namespaces/<name>[/status|/finalize] is the Namespace itself.
  if (segs[0] === 'namespaces' && segs.length >= 3 && !['status', 'finalize'].includes(segs[2] ?? '')) {
    namespace = segs[1];
    segs = segs.slice(2);
  }
  return {
    kind: 'resource',
    group: gr.group,
    version: gr.rest[0] ?? '',
    namespace,
    plural: segs[0] ?? '',
    name: segs[1],
    subresource: segs.slice(2).join('/'),
  };
}
