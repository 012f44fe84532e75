import { nodeRecordName, type NodeRecord, type RecordSource } from './node-record.js';
import type { NodeRecords } from './node-record-store.js';

/** Node records in a Map: for tests and one-shot commands that only look. Keeps a log of writes. */
export class MemoryNodeRecords implements NodeRecords {
  private readonly records = new Map<string, NodeRecord>();
  readonly writes: string[] = [];

  constructor(initial: readonly NodeRecord[] = []) {
    for (const r of initial) this.records.set(nodeRecordName(r.source, r.instance), r);
  }

  get(source: RecordSource, instance: string): NodeRecord | undefined {
    return this.records.get(nodeRecordName(source, instance));
  }

  forNode(nodeName: string): NodeRecord | undefined {
    return [...this.records.values()].find((r) => r.nodeName === nodeName);
  }

  all(): readonly NodeRecord[] {
    return [...this.records.values()];
  }

  put(record: NodeRecord): Promise<void> {
    this.records.set(nodeRecordName(record.source, record.instance), record);
    this.writes.push(`put ${record.source} ${record.instance}`);
    return Promise.resolve();
  }

  remove(source: RecordSource, instance: string): Promise<void> {
    this.records.delete(nodeRecordName(source, instance));
    this.writes.push(`remove ${source} ${instance}`);
    return Promise.resolve();
  }
}
