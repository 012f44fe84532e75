import type { CoreV1Api, V1ConfigMap } from '@kubernetes/client-node';
import type { Clock } from '../kube/clock.js';
import type { Logger } from '../kube/logger.js';
import { SupervisedInformer } from '../kube/supervised-informer.js';
import type { WatchPort } from '../kube/watch-port.js';
import { NODE_RECORD_LABEL, type NodeRecord, type RecordSource } from './node-record.js';
import { ConfigMapNodeRecords, type NodeRecords } from './node-record-store.js';

export interface InformedNodeRecordsSources {
  readonly core: CoreV1Api;
  readonly watch: WatchPort;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly namespace: string;
  readonly onRestart?: (informer: string, reason: string) => void;
}

/**
 * The node records of the operator's namespace, read from a watch of the labelled record ConfigMaps
 * (one informer, whatever the number of nodes) and written through `ConfigMapNodeRecords`. `start`
 * resolves once the first list filled the cache: no decision is made from an empty one. A stopped
 * instance never starts again.
 */
export class InformedNodeRecords implements NodeRecords {
  private readonly informer: SupervisedInformer<V1ConfigMap>;
  private readonly store: ConfigMapNodeRecords;
  private stopped = false;

  constructor(s: InformedNodeRecordsSources) {
    const ns = s.namespace;
    this.informer = new SupervisedInformer<V1ConfigMap>({
      name: 'node-records',
      path: `/api/v1/namespaces/${ns}/configmaps`,
      list: (sel) => s.core.listNamespacedConfigMap({ namespace: ns, ...sel }),
      watch: s.watch,
      clock: s.clock,
      logger: s.logger,
      labelSelector: `${NODE_RECORD_LABEL}=true`,
      onRestart: (reason) => s.onRestart?.('node-records', reason),
    });
    this.store = new ConfigMapNodeRecords(s.core, ns, this.informer);
  }

  /** Resolves at once, starting nothing, after `stop()`: a start that loses a race with a stop never leaks a watch. */
  start(): Promise<void> {
    return this.stopped ? Promise.resolve() : this.informer.start();
  }

  /** Ends the watch for good (as the other caches of a core do). */
  stop(): void {
    this.stopped = true;
    this.informer.stop();
  }

  get synced(): boolean {
    return this.informer.synced;
  }

  /** Called when a record appears, changes or goes (e.g. to look at pending CSRs again). */
  onChange(listener: () => void): void {
    for (const ev of ['add', 'update', 'delete'] as const) this.informer.on(ev, listener);
  }

  get(source: RecordSource, instance: string): NodeRecord | undefined {
    return this.store.get(source, instance);
  }

  forNode(nodeName: string): NodeRecord | undefined {
    return this.store.forNode(nodeName);
  }

  all(): readonly NodeRecord[] {
    return this.store.all();
  }

  put(record: NodeRecord): Promise<void> {
    return this.store.put(record);
  }

  remove(source: RecordSource, instance: string): Promise<void> {
    return this.store.remove(source, instance);
  }
}
