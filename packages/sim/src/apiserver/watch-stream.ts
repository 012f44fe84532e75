import type { ServerResponse } from 'node:http';
import type { StoreEvent } from './event-log.js';
import type { JsonObject } from './json.js';
import { matches, type ObjectStore, type Selection } from './object-store.js';
import { groupVersion, typeKey, type ResourceType } from './resource-type.js';
import { ApiError } from './status.js';

export interface WatchRequest {
  readonly type: ResourceType;
  readonly selection: Selection;
  readonly resourceVersion: string | undefined;
  readonly allowBookmarks: boolean;
  readonly timeoutSeconds: number | undefined;
  /** Renders ADDED/MODIFIED/DELETED objects (Table watches); `first` is true for the first event. */
  readonly render?: (o: JsonObject, first: boolean) => unknown;
}

/** The cacher sends its last bookmark this long before a watch's deadline (cache_watcher.go). */
const PRE_TIMEOUT_BOOKMARK_MS = 2_000;

type OutType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** The events one watcher sees for a store event, with selector transitions as ADDED/DELETED. */
export function translate(e: StoreEvent, sel: Selection): OutType | undefined {
  if (e.type === 'ADDED') return matches(sel, e.object) ? 'ADDED' : undefined;
  const before = e.prev !== undefined && matches(sel, e.prev);
  if (e.type === 'DELETED') return before || matches(sel, e.object) ? 'DELETED' : undefined;
  const now = matches(sel, e.object);
  const table: Record<string, OutType | undefined> = {
    'true/true': 'MODIFIED',
    'false/true': 'ADDED',
    'true/false': 'DELETED',
  };
  return table[`${before}/${now}`];
}

/** Open watch streams, so fault hooks can drop them all. */
export class WatchRegistry {
  private readonly open = new Set<ServerResponse>();
  /**
   * Bookmarks (only when a watch asks with allowWatchBookmarks) come every minute and 2 s before the
   * watch's deadline, as the cacher's `defaultBookmarkFrequency` and `nextBookmarkTime` send them
   * (k8s.io/apiserver pkg/storage/cacher). Tests may lower it; nothing else is sent on an idle watch.
   */
  bookmarkIntervalMs = 60_000;
  /** The server-side cap when a client gives no timeoutSeconds (the real one is 30-60 minutes). */
  defaultTimeoutSeconds = 1_800;

  add(res: ServerResponse): void {
    this.open.add(res);
    res.on('close', () => this.open.delete(res));
  }

  /** Ends every watch cleanly (the client sees the stream close, as after a server-side timeout). */
  dropAll(): number {
    const n = this.open.size;
    for (const r of [...this.open]) r.end();
    this.open.clear();
    return n;
  }

  get size(): number {
    return this.open.size;
  }
}

function line(res: ServerResponse, type: OutType, object: unknown): void {
  if (!res.writableEnded) res.write(`${JSON.stringify({ type, object })}\n`);
}

/** Writes object events through the request's renderer (first event knows it is first). */
function objectWriter(res: ServerResponse, req: WatchRequest): (type: OutType, o: JsonObject) => void {
  let first = true;
  return (type, o) => {
    line(res, type, req.render ? req.render(o, first) : o);
    first = false;
  };
}

/** Bookmarks when asked for (every interval and 2 s before the deadline), then the end at the deadline. */
function scheduleEnd(
  res: ServerResponse,
  store: ObjectStore,
  req: WatchRequest,
  registry: WatchRegistry,
): NodeJS.Timeout[] {
  const bookmark = (): void =>
    line(res, 'BOOKMARK', {
      kind: req.type.kind,
      apiVersion: groupVersion(req.type),
      metadata: { resourceVersion: String(store.currentRv) },
    } satisfies JsonObject);
  const timers: NodeJS.Timeout[] = [];
  // timeoutSeconds=0 means "the server's default", as in kube-apiserver.
  const timeoutMs = (req.timeoutSeconds || registry.defaultTimeoutSeconds) * 1000;
  if (req.allowBookmarks) {
    timers.push(setInterval(bookmark, registry.bookmarkIntervalMs));
    if (timeoutMs >= PRE_TIMEOUT_BOOKMARK_MS)
      timers.push(setTimeout(bookmark, timeoutMs - PRE_TIMEOUT_BOOKMARK_MS));
  }
  timers.push(setTimeout(() => res.end(), timeoutMs));
  return timers;
}

/** Serves `?watch=true`: headers flushed at once, replay, live events, bookmarks, timeout. */
export function serveWatch(
  res: ServerResponse,
  store: ObjectStore,
  req: WatchRequest,
  registry: WatchRegistry,
): void {
  const t = req.type;
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
    'Transfer-Encoding': 'chunked',
  });
  res.flushHeaders();
  registry.add(res);
  const rv = req.resourceVersion;
  const emit = objectWriter(res, req);
  let backlog: StoreEvent[] = [];
  if (rv === undefined || rv === '' || rv === '0') {
    for (const o of store.all(t)) if (matches(req.selection, o)) emit('ADDED', o);
  } else {
    try {
      backlog = store.log.since(Number(rv), typeKey(t));
    } catch (e) {
      if (e instanceof ApiError) line(res, 'ERROR', e.toStatus());
      res.end();
      return;
    }
  }
  const send = (e: StoreEvent): void => {
    if (e.typeKey !== typeKey(t)) return;
    const out = translate(e, req.selection);
    if (out !== undefined) emit(out, e.object);
  };
  backlog.forEach(send);
  const unsubscribe = store.subscribe(send);
  const timers = scheduleEnd(res, store, req, registry);
  res.on('close', () => {
    unsubscribe();
    timers.forEach((x) => clearTimeout(x));
  });
}
