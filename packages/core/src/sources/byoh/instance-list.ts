import type { V1ConfigMap } from '@kubernetes/client-node';
import type { InstancePhase } from '../../lifecycle/instance-status.js';
import type { ObjectRef } from '../../kube/event-recorder.js';

/** What the shared lifecycle reports about one host of an `InstanceList`. */
export interface InstanceReport {
  /** The host's key in the list (its address as listed). */
  readonly address: string;
  readonly phase: InstancePhase;
  /** The node the host joined as, once decided. */
  readonly node?: string;
  /** Why the last attempt failed (kept while it retries). */
  readonly lastError?: string;
}

/**
 * The hosts an embedding controller keeps itself, instead of the `windows-instances` ConfigMap: for
 * example `WindowsHost` custom resources (examples/embedded-controller). The BYOH source reads its
 * instances from this list and gives each the shared lifecycle: join, upgrade, reboot, re-key, drift
 * repair and removal (a host that leaves the list is deconfigured and its Node deleted), kubelet CSR
 * approval, the disruption budget and the configuration watches. Records, status and host-key pins are
 * kept as for `windows-instances` entries, in the controllers' namespace.
 */
export interface InstanceList {
  /**
   * Starts watching the hosts and resolves once they are listed. `changed` is called after every change
   * (a host added, changed or gone); the list is then read with `instances()`.
   */
  start(changed: () => void): Promise<void>;
  /** Stops watching (a later `start` watches again). */
  stop(): void;
  /** Whether the hosts were listed since the last start. */
  readonly synced: boolean;
  /**
   * The hosts now: address (IPv4 or DNS name) to `username=<user>`, as `windows-instances` lists them;
   * undefined while not listed.
   */
  instances(): Readonly<Record<string, string>> | undefined;
  /**
   * Each status change of a listed host (its phase, node and last error), and `undefined` once its
   * status is gone; absent: statuses are only kept in `windows-instances-status`. A failure is logged.
   */
  report?(address: string, status: InstanceReport | undefined): Promise<void>;
  /**
   * Hosts that left the list but whose object is still there (deleted, held by a finalizer): each is
   * reconciled as gone even after a restart, and `report(address, undefined)` says once nothing is left to
   * remove (its removal finished, or it never joined). Absent: none.
   */
  leaving?(): readonly string[];
  /**
   * The object events about a host (listed, or leaving) go on, for an embedder's own source only; absent or
   * undefined: a `windows-instances` ConfigMap reference.
   */
  eventTarget?(address: string): ObjectRef | undefined;
}

/**
 * An embedder's own source of Windows hosts (docs/embedding.md): its hosts get the shared lifecycle on a
 * work queue of their own, with their records kept under `source/<id>` and `source: <id>` in their
 * statuses, so the `windows-instances` source (or another embedder's source) never takes them for its own.
 */
export interface HostSource {
  /**
   * The source's name: a DNS-1123 label that is not a built-in source's (`byoh`, `machine`, `machines`,
   * `windows-instances`); one per process.
   */
  readonly id: string;
  /** Its hosts, and where each host's status is reported (`InstanceList.report`). */
  readonly hosts: InstanceList;
}

type Handler = (obj: V1ConfigMap, old?: V1ConfigMap) => void;

/** What the BYOH controllers use of their instances' informer. */
export interface InstancesInformer {
  start(): Promise<void>;
  stop(): void;
  readonly synced: boolean;
  list(): readonly V1ConfigMap[];
  on(event: 'add' | 'update' | 'delete', handler: Handler): void;
}

/** An `InstanceList` as the BYOH controllers' instances informer: one ConfigMap-like object, its hosts as data. */
export function instanceListInformer(list: InstanceList): InstancesInformer {
  const handlers: Handler[] = [];
  const current = (): V1ConfigMap => ({ data: { ...list.instances() } });
  return {
    start: () => list.start(() => handlers.forEach((h) => h(current()))),
    stop: () => list.stop(),
    get synced() {
      return list.synced;
    },
    list: () => (list.instances() === undefined ? [] : [current()]),
    // Every change is one update of the whole list: the BYOH controllers then reconcile every entry.
    on: (event, handler) => {
      if (event === 'update') handlers.push(handler);
    },
  };
}
