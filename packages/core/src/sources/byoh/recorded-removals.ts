import type { V1Node } from '@kubernetes/client-node';
import { publicKeyHash } from '../../desired/authorized-key.js';
import { Labels } from '../../identity/node-metadata.js';
import { publicKeyOf } from '../../desired/public-key.js';
import type { ReconcileOutcome } from '../../kube/controller.js';
import type { NodeRecords } from '../../identity/node-record-store.js';
import type { NodeRecord, RecordSource } from '../../identity/node-record.js';
import type { ObjectRef } from '../../kube/event-recorder.js';
import type { ByohView } from './byoh-view.js';
import type { NodeRecordGuard } from './node-record-guard.js';
import type { RemoveFlow, RemoveOptions } from '../../lifecycle/remove-flow.js';
import type { EntryPins } from './entry-pins.js';

/**
 * Removals of BYOH instances, decided from the operator's records (ADR 0035): a node name is removed only
 * when a record names it and the record's `windows-instances` entry is gone; the host, the username and
 * the tags come from the record. A Node that contradicts its record is fenced instead (no SSH, no cloud
 * call), and a BYOH Node without a record is reported, never removed.
 */
export class RecordedRemovals {
  constructor(
    private readonly view: ByohView,
    private readonly guard: NodeRecordGuard,
    private readonly flows: {
      readonly remove: RemoveFlow;
      readonly removeOptions: RemoveOptions;
      readonly pins?: EntryPins;
    },
    /** The controllers' namespace (where events about a `windows-instances` entry go). */
    private readonly namespace = '',
  ) {}

  async reconcile(
    name: string,
    privateKey: string,
    signal: AbortSignal,
  ): Promise<ReconcileOutcome | undefined> {
    const record = this.guard.recordNaming(name);
    if (record === undefined) return this.unrecorded(name);
    // Another source's node (windows-instances, an embedder's, a Machine) is that source's to remove, and
    // a listed entry's node stays: neither needs the record checked against the Node (every BYOH node is
    // looked at here whenever the nodes or the entries change; at 1,000 nodes the checks were a quarter of
    // the operator's CPU).
    const own = this.view.source?.record ?? 'windows-instances';
    if (record.source !== own || this.view.instances()?.[record.instance] !== undefined) return undefined;
    const key = { privateKeyPem: privateKey, publicKeyHash: publicKeyHash(publicKeyOf(privateKey)) };
    const found = this.guard.ofRecord(record, key);
    if (found.kind === 'contradicts') {
      await this.guard.fence(found);
      return undefined;
    }
    const node = found.kind === 'agrees' ? found.node : undefined;
    await this.flows.remove.remove({ record, node }, privateKey, this.options(record, signal));
    await this.flows.pins?.recordRemoved(record);
    return undefined;
  }

  /** The removal's options; its events go on the object the source names for the host (else windows-instances). */
  private options(
    record: NodeRecord,
    signal: AbortSignal,
  ): RemoveOptions & { signal: AbortSignal; eventTarget?: ObjectRef } {
    const eventTarget = this.view.source?.eventTarget(this.namespace, record.instance);
    return { ...this.flows.removeOptions, signal, ...(eventTarget ? { eventTarget } : {}) };
  }

  private async unrecorded(name: string): Promise<undefined> {
    // Reported once, by the windows-instances source (an embedder's source has no such nodes to adopt).
    if (this.view.source?.builtIn === false) return undefined;
    const node = this.view.node(name);
    if (node?.metadata?.labels?.[Labels.byoh] === 'true') await this.guard.reportUnrecorded(node);
    return undefined;
  }
}

/**
 * The node names looked at for removal: every BYOH Node (one without a record is reported), and the node
 * of every BYOH record whose `windows-instances` entry is gone, even when its Node is not (or no longer)
 * seen, so the recorded host is still given back.
 */
export function removalCandidates(
  nodes: readonly V1Node[],
  records: NodeRecords,
  entries: readonly string[],
  source: RecordSource = 'windows-instances',
): string[] {
  const listed = new Set(entries);
  const byoh = nodes
    .filter((n) => n.metadata?.labels?.[Labels.byoh] === 'true')
    .map((n) => n.metadata?.name ?? '');
  const gone = records
    .all()
    .filter((r) => r.source === source && !listed.has(r.instance))
    .map((r) => r.nodeName);
  return [...new Set([...byoh, ...gone])];
}
