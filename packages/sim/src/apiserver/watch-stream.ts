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
  bookmarkIntervalMs = 5_000;
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
  const bookmark = (): void =>
    line(res, 'BOOKMARK', {
      kind: t.kind,
      apiVersion: groupVersion(t),
      metadata: { resourceVersion: String(store.currentRv) },
    } satisfies JsonObject);
  const timers: NodeJS.Timeout[] = [];
  if (req.allowBookmarks) timers.push(setInterval(bookmark, registry.bookmarkIntervalMs));
  // timeoutSeconds=0 means "the server's default", as in kube-apiserver.
  const timeout = req.timeoutSeconds || registry.defaultTimeoutSeconds;
  timers.push(
    setTimeout(() => {
      if (req.allowBookmarks) bookmark();
      res.end();
    }, timeout * 1000),
  );
  res.on('close', () => {
    unsubscribe();
    timers.forEach((x) => clearTimeout(x));
  });
}
