import type { CoreV1Api, V1ConfigMap } from '@kubernetes/client-node';
import { apiStatus, isNotFound } from '../kube/client/api-errors.js';
import {
  decodeNodeRecord,
  nodeRecordConfigMap,
  nodeRecordName,
  type NodeRecord,
  type RecordSource,
} from './node-record.js';

/** What every decision after a join reads instead of the Node's own fields (ADR 0035). */
export interface NodeRecords {
  get(source: RecordSource, instance: string): NodeRecord | undefined;
  /** The record whose decided node name is `nodeName`. */
  forNode(nodeName: string): NodeRecord | undefined;
  all(): readonly NodeRecord[];
  /** Writes (creates or replaces) the record of `record.instance`. */
  put(record: NodeRecord): Promise<void>;
  /** Forgets the record of an instance (its removal finished, or it never joined). */
  remove(source: RecordSource, instance: string): Promise<void>;
  /** Called when a record appears, changes or goes (stores that watch the records). */
  onChange?(listener: () => void): void;
}

/** The read side: the ConfigMaps labelled as records in the operator's namespace (an informer's cache). */
export interface RecordCache {
  list(): readonly V1ConfigMap[];
  /** Changes whenever the list does (an informer's cache); absent: the list is read on every lookup. */
  readonly revision?: number;
}

/** The records, decoded once per change of the cache or of this store's own writes, with two indexes. */
interface RecordIndex {
  readonly cacheRevision: number | undefined;
  readonly writes: number;
  readonly records: readonly NodeRecord[];
  readonly byName: ReadonlyMap<string, NodeRecord>;
  readonly byNode: ReadonlyMap<string, NodeRecord>;
}

interface Written {
  readonly cm: V1ConfigMap | undefined;
  readonly resourceVersion: string | undefined;
}

/** The cache shows a write of this store: the version written, or the object gone after a delete. */
function caughtUp(w: Written, cached: V1ConfigMap | undefined): boolean {
  return w.cm === undefined ? cached === undefined : cached?.metadata?.resourceVersion === w.resourceVersion;
}

/**
 * Records as one ConfigMap per instance in the operator's namespace (ADR 0035). Reads come from the
 * informer's cache; a write is seen by the next read at once (the written object is kept until the cache
 * holds that version, or, after a delete, no longer holds the object).
 */
export class ConfigMapNodeRecords implements NodeRecords {
  private readonly written = new Map<string, Written>();
  private decoded = new Map<string, { rv: string | undefined; record: NodeRecord | undefined }>();
  private memo: RecordIndex | undefined;
  /** Bumped by every write of this store (a put or a remove the cache may not show yet). */
  private writes = 0;

  constructor(
    private readonly core: CoreV1Api,
    private readonly namespace: string,
    private readonly cache: RecordCache,
  ) {}

  get(source: RecordSource, instance: string): NodeRecord | undefined {
    return this.index().byName.get(nodeRecordName(source, instance));
  }

  forNode(nodeName: string): NodeRecord | undefined {
    return this.index().byNode.get(nodeName);
  }

  all(): readonly NodeRecord[] {
    return this.index().records;
  }

  /**
   * The records and their indexes, rebuilt only when the cache or this store's writes changed since: every
   * drift check, CSR and entry looks records up, and with 600 nodes a decode of the whole list per lookup
   * was a seventh of the operator's CPU (`pnpm bench scale`, docs/benchmarks.md).
   */
  private index(): RecordIndex {
    const cacheRevision = this.cache.revision;
    const memo = this.memo;
    const fresh = cacheRevision !== undefined && memo?.cacheRevision === cacheRevision;
    if (memo && fresh && memo.writes === this.writes) return memo;
    const { records, byName, byNode } = this.decodeAll();
    this.memo = { cacheRevision, writes: this.writes, records, byName, byNode };
    return this.memo;
  }

  /** Every record of the cache and of this store's writes, decoded (a known version is not decoded again). */
  private decodeAll(): Pick<RecordIndex, 'records' | 'byName' | 'byNode'> {
    const decoded = new Map<string, { rv: string | undefined; record: NodeRecord | undefined }>();
    const records: NodeRecord[] = [];
    const byName = new Map<string, NodeRecord>();
    const byNode = new Map<string, NodeRecord>();
    for (const [name, cm] of this.objects()) {
      const rv = cm.metadata?.resourceVersion;
      const known = this.decoded.get(name);
      const record = known && known.rv === rv && rv !== undefined ? known.record : decodeNodeRecord(cm);
      decoded.set(name, { rv, record });
      if (!record) continue;
      records.push(record);
      byName.set(nodeRecordName(record.source, record.instance), record);
      // The first record naming a node wins, as a search of the list in order did.
      if (!byNode.has(record.nodeName)) byNode.set(record.nodeName, record);
    }
    this.decoded = decoded;
    return { records, byName, byNode };
  }

  /** The cache's record ConfigMaps, with this store's own writes the cache does not show yet. */
  private objects(): Map<string, V1ConfigMap> {
    const byName = new Map<string, V1ConfigMap>();
    for (const cm of this.cache.list()) byName.set(cm.metadata?.name ?? '', cm);
    for (const [name, w] of [...this.written]) {
      const cached = byName.get(name);
      if (caughtUp(w, cached)) this.written.delete(name);
      else if (w.cm === undefined) byName.delete(name);
      else byName.set(name, w.cm);
    }
    return byName;
  }

  async put(record: NodeRecord): Promise<void> {
    const body = nodeRecordConfigMap(this.namespace, record);
    const name = body.metadata?.name ?? '';
    let stored: V1ConfigMap;
    try {
      stored = await this.core.createNamespacedConfigMap({ namespace: this.namespace, body });
    } catch (err) {
      if (apiStatus(err) !== 409) throw err;
      stored = await this.core.replaceNamespacedConfigMap({ name, namespace: this.namespace, body });
    }
    this.written.set(name, { cm: stored, resourceVersion: stored.metadata?.resourceVersion });
    this.writes++;
  }

  async remove(source: RecordSource, instance: string): Promise<void> {
    const name = nodeRecordName(source, instance);
    await this.core.deleteNamespacedConfigMap({ name, namespace: this.namespace }).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
    this.written.set(name, { cm: undefined, resourceVersion: undefined });
    this.writes++;
  }
}
