/** A Kubernetes object as informers see it: only metadata is assumed. */
export interface KubeObject {
  metadata?: {
    name?: string | undefined;
    namespace?: string | undefined;
    resourceVersion?: string | undefined;
  };
}

export interface KubeList<T extends KubeObject> {
  readonly items: readonly T[];
  /** `_continue` (client-node's name of `continue`): the next page's token, for a list with a `limit`. */
  readonly metadata?: { resourceVersion?: string; _continue?: string };
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** A running watch request; abort() ends it and `onDone` is called with undefined or an AbortError. */
export interface WatchHandle {
  abort(): void;
}

/**
 * The watch door to the API server: starts `GET <path>?watch=true&...`, calls `onEvent` per event and
 * `onDone` once when the stream ends (with the error, if any). client-node's `Watch.watch` has this shape.
 */
export type WatchPort = (
  path: string,
  query: Record<string, string | number | boolean>,
  onEvent: (type: string, object: unknown) => void,
  onDone: (err?: unknown) => void,
) => Promise<WatchHandle>;

/** The list call that matches a watch (same path, same selectors). */
export type ListPort<T extends KubeObject> = (selectors: {
  labelSelector?: string;
  fieldSelector?: string;
  /** Page size and the previous page's token, for informers that list in pages (`pageSize`). */
  limit?: number;
  continue?: string;
}) => Promise<KubeList<T>>;

/** HTTP status of an error thrown or reported by client-node (ApiException.code, or statusCode). */
export function httpStatus(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { code?: unknown; statusCode?: unknown };
  if (typeof e.code === 'number') return e.code;
  if (typeof e.statusCode === 'number') return e.statusCode;
  return undefined;
}
