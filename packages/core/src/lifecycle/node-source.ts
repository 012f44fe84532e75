import type { V1Node } from '@kubernetes/client-node';
import type { HostState } from '../host/protocol/index.js';
import { NodeNotOwnedError, nodeOwner } from '../identity/node-ownership.js';
import { Annotations } from '../identity/node-metadata.js';
import type { ObjectRef } from '../kube/event-recorder.js';
import type { InstanceStatus } from './instance-status.js';
import type { RecordSource } from '../identity/node-record.js';

/**
 * The seam between a source of Windows instances and the one node lifecycle (ARCHITECTURE §3, ADR 0017).
 *
 * A source says only which instances exist and how to reach them: the `windows-instances` ConfigMap
 * (sources/byoh), Windows Machines (sources/machines), and an embedder's own hosts (for example
 * `WindowsHost` custom resources), a `HostSource` with an id of its own run by the same listed-source
 * controllers as `windows-instances` (sources/byoh/listed-source.ts, ADR 0039).
 * Everything after that is shared code: join, upgrade, reboot, re-key, drift repair and removal, under one
 * disruption budget, scheduled the same way for every source.
 *
 * A source implements two things:
 *
 * - `NodeSource`, once: it registers with `NodeMaintenance.addSource` and puts every node it manages back
 *   on its own work queue when asked (`requeueAll`). The cluster configuration watches (proxy, mirror
 *   sets and their pull secret, trusted CA, kubelet CA, services ConfigMap, exporter certificate) call it
 *   for every source at once, so a configuration change reaches every node within the watch latency, not
 *   at the next drift interval. Its reconciler then looks at each node through the shared `DriftChecks`
 *   (which knows, through `NodeMaintenance.recent`, that the configuration changed) and the other flows.
 * - `SourceInstance`, per instance, handed to every flow that touches its node: how the instance is named
 *   in messages, whether a Node is this instance's (never touch another source's node), where its status
 *   is recorded in `windows-instances-status`, and where its events go. `JoiningInstance` adds what only
 *   the join needs: which name the node gets, how the source claims the Node once the kubelet registered
 *   it, and what the Node is labelled and annotated with.
 *
 * A source also decides, per instance, "what does this node need next" with one pure function of its
 * state (for Machines `planMachine`, sources/machines/machine-plan.ts); its reconciler acts on that
 * decision and `wmco plan` prints it, so the two cannot disagree.
 */
export interface NodeSource {
  /** `byoh`, `machine`, or the embedder's name: recorded as `source` in each instance's status. */
  readonly id: string;
  /** Put every node this source manages on its work queue (the cluster configuration changed). */
  requeueAll(): void;
  /**
   * Put the instances of these names on its work queue: a slot of the disruption budget freed while they
   * waited for it. A name is a Windows node's, or whatever else the source asked the budget for (a
   * Machine with no node yet: `machine/<name>`); names that are not this source's are ignored. Without
   * it, `requeueAll` is called instead: a fleet's every node looked at on every hand-on.
   */
  requeueWaiting?(names: readonly string[]): void;
}

/** One instance of a source, as the shared flows (join, upgrade, reboot, re-key, drift repair, removal) see it. */
export interface SourceInstance {
  /** Who a node must belong to, for messages (`10.0.0.5`, `Machine openshift-machine-api/win-1`). */
  readonly owner: string;
  /** Whether the Node belongs to this instance (checked before anything touches it). */
  owns(node: V1Node): boolean;
  /** Where its progress is kept in `windows-instances-status`, and what the status says of its source. */
  readonly status: { readonly key: string; readonly extra: Partial<InstanceStatus> };
  /** The object events about this instance are recorded on. */
  readonly eventTarget: ObjectRef;
}

/** What the join needs of an instance besides `SourceInstance`. */
export interface JoiningInstance extends SourceInstance {
  /** Rename the host to this computer name first (HostRename), rebooting; undefined: keep its name. */
  readonly hostname?: string;
  /** Labels and annotations the Node gets once claimed (besides pub-key-hash, username and host key). */
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  /** Decides the node name after the bootstrap observe, before the kubelet starts. */
  decideName(values: Readonly<Record<string, string>>, host: HostState): Promise<string>;
  /** Which operator-owned record the join writes once the Node is claimed (ADR 0035). */
  readonly record: {
    readonly source: RecordSource;
    readonly instance: string;
    readonly dnsName?: string;
  };
  /** Makes sure the registered Node is this instance's before anything touches it. */
  claim(node: V1Node): Promise<void>;
  /** The join ended (joined or failed): nothing more is approved for it. */
  end(): void;
}

/** Throws NodeNotOwnedError unless `node` belongs to `instance` (never touch another's node). */
export function assertOwns(instance: SourceInstance, node: V1Node, action: string): void {
  if (instance.owns(node)) return;
  const other = nodeOwner(node) ?? node.metadata?.annotations?.[Annotations.machine];
  throw new NodeNotOwnedError(node.metadata?.name ?? '', action, other, instance.owner);
}
