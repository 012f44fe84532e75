import type { V1Node } from '@kubernetes/client-node';
import { enterPhase, MACHINE_STATUS_PREFIX, type InstanceStatusStore } from './instance-status.js';
import type { EventRecorder } from '../kube/event-recorder.js';
import type { Logger } from '../kube/logger.js';
import type { NodeRecord } from '../identity/node-record.js';

export interface RecordMismatchReporterDeps {
  readonly events: EventRecorder;
  readonly logger: Logger;
  readonly status: InstanceStatusStore;
}

/** The reason of the Warning event on a Node whose own fields contradict the operator's record. */
export const NODE_RECORD_MISMATCH = 'NodeRecordMismatch';

function statusKey(r: NodeRecord): string {
  return r.source === 'machine' ? `${MACHINE_STATUS_PREFIX}${r.instance.split('/')[1] ?? ''}` : r.address;
}

/**
 * Reports a Node that contradicts the operator's record (ADR 0035): one Warning event on the Node (in
 * `default`, where events about cluster-scoped objects go), a log line, and the instance's status
 * `lastError`, once per distinct finding. Nothing is done to the Node or its host.
 */
export class RecordMismatchReporter {
  private readonly reported = new Map<string, string>();

  constructor(private readonly d: RecordMismatchReporterDeps) {}

  async report(node: V1Node, record: NodeRecord, problems: readonly string[], action: string): Promise<void> {
    const name = node.metadata?.name ?? '';
    const message =
      `Node ${name} contradicts the operator's record of instance ${record.instance} ` +
      `(${problems.join('; ')}); not ${action}: the operator acts only on its own record`;
    if (this.reported.get(name) === message) return;
    this.reported.set(name, message);
    this.d.logger.warn({ node: name, instance: record.instance, problems }, 'node contradicts its record');
    const uid = node.metadata?.uid;
    await this.d.events.record(
      { apiVersion: 'v1', kind: 'Node', name, ...(uid ? { uid } : {}) },
      'Warning',
      NODE_RECORD_MISMATCH,
      message,
    );
    const key = statusKey(record);
    const current = this.d.status.get(key);
    if (current?.lastError === message) return;
    await this.d.status.set(
      enterPhase(current, {
        address: key,
        phase: current?.phase ?? 'Failed',
        now: new Date(),
        extra: { node: name, lastError: message },
      }),
    );
  }

  /** The node agrees again (or is gone): a new finding is reported anew. */
  forget(nodeName: string): void {
    this.reported.delete(nodeName);
  }
}
