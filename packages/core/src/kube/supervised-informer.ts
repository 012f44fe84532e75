import type { Clock, TimerHandle } from './clock.js';
import { errorMessage, silentLogger, type Logger } from './logger.js';
import { withoutManagedFields } from './cache-transform.js';
import { listInPages } from './paged-list.js';
import { ObjectCache, type CacheHandlers, type ObjectHandler } from './object-cache.js';
import {
  httpStatus,
  type KubeObject,
  type ListPort,
  type WatchHandle,
  type WatchPort,
} from './watch-port.js';

export interface SupervisedInformerOptions<T extends KubeObject> {
  readonly name: string;
  /** Watch path, e.g. `/api/v1/namespaces/ns/configmaps`. */
  readonly path: string;
  readonly list: ListPort<T>;
  readonly watch: WatchPort;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly clock: Clock;
  readonly logger?: Logger;
  /** List in pages of this many objects (client-go's reflector: 500); unset: one unpaged list. */
  readonly pageSize?: number;
  /** Full relist period, whatever happens (default 10 min). */
  readonly relistIntervalMs?: number;
  /** Restart when no event or bookmark arrived for this long (default 5 min). */
  readonly watchdogMs?: number;
  readonly backoffBaseMs?: number;
  readonly backoffMaxMs?: number;
  /** Called on every restart, with the reason; for metrics. */
  readonly onRestart?: (reason: string) => void;
  /**
   * What the cache keeps of each object (after managedFields are dropped, which is always done): a
   * cache of many objects holds only the fields its readers use. Handlers see the kept objects.
   */
  readonly transform?: (obj: T) => T;
}

/**
 * A list-then-watch informer that does not die. client-node's informer stops for good on any watch error
 * other than 410; this one restarts on every error with jittered exponential backoff, relists on 410
 * and periodically, and restarts a watch that has been silent for too long (a dead TCP connection).
 */
export class SupervisedInformer<T extends KubeObject> {
  private readonly handlers: CacheHandlers<T> = { add: [], update: [], delete: [] };
  private readonly cache = new ObjectCache<T>(this.handlers);
  private readonly logger: Logger;
  private resourceVersion = '';
  private current: WatchHandle | undefined;
  private generation = 0;
  private failures = 0;
  private stopped = true;
  private timers: TimerHandle[] = [];
  private lastActivity = 0;
  private lastList = 0;
  private syncWaiters: (() => void)[] = [];
  synced = false;
  restarts = 0;

  constructor(private readonly options: SupervisedInformerOptions<T>) {
    this.logger = (options.logger ?? silentLogger).child({ informer: options.name });
  }

  on(event: 'add' | 'update' | 'delete', handler: ObjectHandler<T>): void {
    this.handlers[event].push(handler);
  }

  get(name: string, namespace?: string): T | undefined {
    return this.cache.get(name, namespace);
  }

  list(namespace?: string): T[] {
    return this.cache.list(namespace);
  }

  /** Changes whenever the cache does (see ObjectCache.revision). */
  get revision(): number {
    return this.cache.revision;
  }

  /**
   * Starts, and resolves once the first list has filled the cache, or once `stop` is called before that
   * (then `synced` stays false): a start never outlives a stop, so a shutdown during sync ends.
   */
  start(): Promise<void> {
    if (!this.stopped) return this.waitForSync();
    this.stopped = false;
    this.arm();
    void this.cycle('start');
    return this.waitForSync();
  }

  stop(): void {
    this.stopped = true;
    this.generation++;
    for (const t of this.timers) this.options.clock.clearTimeout(t);
    this.timers = [];
    this.current?.abort();
    this.current = undefined;
    this.syncWaiters.splice(0).forEach((w) => w());
  }

  private waitForSync(): Promise<void> {
    return this.synced || this.stopped
      ? Promise.resolve()
      : new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  /** Periodic checks: full relist and the silence watchdog. */
  private arm(): void {
    const { clock } = this.options;
    const period = Math.min(this.options.watchdogMs ?? 300_000, this.options.relistIntervalMs ?? 600_000) / 4;
    const tick = (): void => {
      if (this.stopped) return;
      const now = clock.now();
      if (now - this.lastList >= (this.options.relistIntervalMs ?? 600_000))
        this.restart('periodic relist', true);
      else if (this.current && now - this.lastActivity >= (this.options.watchdogMs ?? 300_000)) {
        this.restart('no event within the watchdog period', true);
      }
      this.timers = [clock.setTimeout(tick, period)];
    };
    this.timers = [clock.setTimeout(tick, period)];
  }

  private restart(reason: string, relist: boolean): void {
    this.restarts++;
    this.options.onRestart?.(reason);
    this.logger.info({ reason, restarts: this.restarts }, 'informer restarting');
    if (relist) this.resourceVersion = '';
    this.generation++;
    this.current?.abort();
    this.current = undefined;
    void this.cycle(reason);
  }

  private async cycle(reason: string): Promise<void> {
    const gen = this.generation;
    try {
      if (this.resourceVersion === '') await this.relist();
      if (gen !== this.generation || this.stopped) return;
      await this.startWatch(gen);
    } catch (err) {
      if (gen === this.generation && !this.stopped) this.fail(err, reason);
    }
  }

  private async relist(): Promise<void> {
    const { labelSelector, fieldSelector, pageSize } = this.options;
    const selectors = {
      ...(labelSelector === undefined ? {} : { labelSelector }),
      ...(fieldSelector === undefined ? {} : { fieldSelector }),
    };
    const list =
      pageSize === undefined
        ? await this.options.list(selectors)
        : await listInPages(this.options.list, selectors, pageSize);
    this.cache.replace(list.items.map((o) => this.kept(o)));
    this.resourceVersion = list.metadata?.resourceVersion ?? '';
    this.lastList = this.options.clock.now();
    this.lastActivity = this.lastList;
    if (!this.synced) {
      this.synced = true;
      this.syncWaiters.splice(0).forEach((w) => w());
    }
  }

  private async startWatch(gen: number): Promise<void> {
    const query: Record<string, string | number | boolean> = {
      resourceVersion: this.resourceVersion,
      allowWatchBookmarks: true,
      timeoutSeconds: 300 + Math.floor(Math.random() * 300),
    };
    if (this.options.labelSelector !== undefined) query['labelSelector'] = this.options.labelSelector;
    if (this.options.fieldSelector !== undefined) query['fieldSelector'] = this.options.fieldSelector;
    const handle = await this.options.watch(
      this.options.path,
      query,
      (type, obj) => gen === this.generation && this.onEvent(type, obj as T),
      (err) => gen === this.generation && this.onDone(err),
    );
    if (gen === this.generation && !this.stopped) this.current = handle;
    else handle.abort();
  }

  private onEvent(type: string, obj: T): void {
    this.lastActivity = this.options.clock.now();
    if (type === 'ERROR') {
      if (httpStatus(obj) === 410) this.expired();
      return;
    }
    if (type === 'ADDED' || type === 'MODIFIED') this.cache.upsert(this.kept(obj));
    if (type === 'DELETED') this.cache.remove(this.kept(obj));
    this.failures = 0;
    const rv = obj.metadata?.resourceVersion;
    if (rv) this.resourceVersion = rv;
  }

  private kept(obj: T): T {
    const slim = withoutManagedFields(obj);
    return this.options.transform ? this.options.transform(slim) : slim;
  }

  private onDone(err: unknown): void {
    if (this.stopped) return;
    this.current = undefined;
    if (err === undefined || err === null) return void this.cycle('watch closed');
    if (httpStatus(err) === 410) return this.expired();
    this.fail(err, 'watch failed');
  }

  /** 410 Gone, as a watch answer or an ERROR event: the history was compacted; list again at once. */
  private expired(): void {
    this.restart('resource version expired', true);
  }

  private fail(err: unknown, reason: string): void {
    this.failures++;
    const base = this.options.backoffBaseMs ?? 1000;
    const delay =
      Math.min(this.options.backoffMaxMs ?? 30_000, base * 2 ** (this.failures - 1)) *
      (1 + Math.random() * 0.2);
    this.logger.warn(
      { err: errorMessage(err), reason, retryInMs: Math.round(delay) },
      'informer error; restarting',
    );
    const gen = ++this.generation;
    this.timers.push(
      this.options.clock.setTimeout(() => {
        if (gen === this.generation && !this.stopped) this.restart(reason, false);
      }, delay),
    );
  }
}
