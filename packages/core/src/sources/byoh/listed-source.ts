import { hostSourceRecord, type RecordSource } from '../../identity/node-record.js';
import type { ObjectRef } from '../../kube/event-recorder.js';
import { instancesConfigMapRef } from '../../lifecycle/join-deps.js';
import type { InstanceList } from './instance-list.js';

/**
 * A source of listed hosts (address and user, no machine behind them): the `windows-instances` ConfigMap,
 * or an embedder's own host source (`HostSource`). Each runs its own controllers and work queue over the
 * same code; this says which source it is wherever the shared flows record it.
 */
export interface ListedSource {
  /** The `NodeSource` id, recorded as `source` in each of its instances' statuses. */
  readonly id: string;
  /** Where its records are kept (ADR 0035): `windows-instances`, or `source/<id>` (ADR 0039). */
  readonly record: Exclude<RecordSource, 'machine'>;
  /** The hosts, for an embedder's source; undefined: the `windows-instances` ConfigMap. */
  readonly list?: InstanceList;
  /**
   * The `windows-instances` source: it alone adopts nodes the Go WMCO joined, gives records to nodes
   * joined before records existed, and reports Windows nodes nobody recorded.
   */
  readonly builtIn: boolean;
  /** The object events about the host listed as `address` go on. */
  eventTarget(namespace: string, address: string): ObjectRef;
}

/** The `windows-instances` ConfigMap source (its hosts may also come from an embedder's `InstanceList`). */
export function byohSource(list?: InstanceList): ListedSource {
  return {
    id: 'byoh',
    record: 'windows-instances',
    builtIn: true,
    ...(list ? { list } : {}),
    eventTarget: (namespace) => instancesConfigMapRef(namespace),
  };
}

/**
 * An embedder's own source `id` over its `list`: records under `source/<id>`, statuses with `source: id`,
 * events on the object the list names for a host (else on `windows-instances`). Throws on an id that is
 * not a DNS-1123 label or is a built-in source's.
 */
export function embedderSource(id: string, list: InstanceList): ListedSource {
  const record = hostSourceRecord(id);
  return {
    id,
    record,
    list,
    builtIn: false,
    eventTarget: (namespace, address) => list.eventTarget?.(address) ?? instancesConfigMapRef(namespace),
  };
}
