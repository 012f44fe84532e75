import type { V1Node } from '@kubernetes/client-node';
import type { WindowsInstance } from '../../desired/windows-instances.js';
import type { NodeRecord } from '../../identity/node-record.js';
import { recordDisagreements, type OperatorKey } from '../../lifecycle/node-record-check.js';
import { RecordMismatchReporter } from '../../lifecycle/record-mismatch-reporter.js';
import { isNotFound } from '../../kube/client/api-errors.js';
import type { ByohView } from './byoh-view.js';
import { nodeEventRef, type JoinDeps } from '../../lifecycle/join-deps.js';
import { nodeOwner } from '../../identity/node-ownership.js';

/** What the operator's record says of an instance or a node name, checked against the Node. */
export type RecordedNode =
  /** No record: the instance was not joined (or its record is for another address). */
  | { readonly kind: 'none' }
  /** Recorded, but no Node of the recorded name exists. */
  | { readonly kind: 'missing'; readonly record: NodeRecord }
  | { readonly kind: 'agrees'; readonly record: NodeRecord; readonly node: V1Node }
  /** The Node's own fields contradict the record: reported, never acted on. */
  | {
      readonly kind: 'contradicts';
      readonly record: NodeRecord;
      readonly node: V1Node;
      readonly problems: readonly string[];
    };

/**
 * Finds instances' Nodes through the operator's record (ADR 0035), never through the Node's annotations
 * or addresses, and reports a Node whose own fields contradict its record.
 */
export class NodeRecordGuard {
  private readonly reporter: RecordMismatchReporter;
  private readonly unrecorded = new Set<string>();

  constructor(
    private readonly deps: JoinDeps,
    private readonly view: ByohView,
  ) {
    this.reporter = new RecordMismatchReporter(deps);
  }

  /** The Node of a listed entry, as its source recorded it at its join at this address. */
  ofEntry(instance: WindowsInstance, key: OperatorKey): RecordedNode {
    const record = this.deps.records.get(this.view.source?.record ?? 'windows-instances', instance.address);
    if (record === undefined || record.address !== instance.ipv4Address) return { kind: 'none' };
    return this.check(record, key);
  }

  /** The record naming `nodeName`, unchecked (`ofRecord` checks it against the Node). */
  recordNaming(nodeName: string): NodeRecord | undefined {
    return this.deps.records.forNode(nodeName);
  }

  /** A record checked against the Node of its name. */
  ofRecord(record: NodeRecord, key: OperatorKey): Exclude<RecordedNode, { kind: 'none' }> {
    return this.check(record, key);
  }

  report(found: Extract<RecordedNode, { kind: 'contradicts' }>, action: string): Promise<void> {
    return this.reporter.report(found.node, found.record, found.problems, action);
  }

  /**
   * A Node that contradicts its record after its instance was removed: reported, and its Node object
   * deleted (no SSH to any host, no drain, no cloud call). Its record stays, so a Node its kubelet
   * registers again under that name is found and deleted the same way; the admin deletes the record
   * ConfigMap once the host is dealt with.
   */
  async fence(found: Extract<RecordedNode, { kind: 'contradicts' }>): Promise<void> {
    await this.report(found, 'deconfigured (no SSH connection, no cloud call); its Node object is deleted');
    const name = found.node.metadata?.name ?? '';
    await this.deps.core.deleteNode({ name }).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  }

  /**
   * A BYOH Node that claims an instance (its owner annotation) but has no record: joined before records
   * and not migrated (migration refused it), or forged. Reported once; never removed.
   */
  async reportUnrecorded(node: V1Node): Promise<void> {
    const name = node.metadata?.name ?? '';
    const owner = nodeOwner(node);
    if (owner === undefined || this.unrecorded.has(name)) return;
    this.unrecorded.add(name);
    const message = `Node ${name} claims instance ${owner}, but the operator has no record of joining it; not removed or configured`;
    this.deps.logger.warn({ node: name, owner }, message);
    await this.deps.events.record(nodeEventRef(node), 'Warning', 'NodeNotRecorded', message);
  }

  private check(record: NodeRecord, key: OperatorKey): Exclude<RecordedNode, { kind: 'none' }> {
    const node = this.view.node(record.nodeName);
    if (node === undefined) return { kind: 'missing', record };
    const problems = recordDisagreements(node, record, key);
    if (problems.length > 0) return { kind: 'contradicts', record, node, problems };
    this.reporter.forget(record.nodeName);
    return { kind: 'agrees', record, node };
  }
}
