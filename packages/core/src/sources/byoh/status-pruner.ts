import type { V1Node } from '@kubernetes/client-node';
import { parseWindowsInstances, type Ipv4Resolver } from '../../desired/windows-instances.js';
import { Labels } from '../../identity/node-metadata.js';
import { MACHINE_STATUS_PREFIX, type InstanceStatusStore } from '../../lifecycle/instance-status.js';
import { nodeInternalIp } from '../../lifecycle/node-ops.js';

/** What is still a BYOH instance: the `windows-instances` entries and the BYOH Nodes. */
export interface StatusScope {
  readonly instances: Readonly<Record<string, string>> | undefined;
  readonly nodes: readonly V1Node[];
  readonly resolve: Ipv4Resolver;
  /** The source whose statuses are pruned (default `byoh`): another source's statuses are its own to prune. */
  readonly source?: string;
}

/**
 * Keeps `windows-instances-status` bounded (ADR 0005): deletes the status of every address that is no
 * longer an instance: neither an entry key, nor the IPv4 address an entry resolves to, nor a BYOH Node
 * still being removed. A status in `Removing` stays until its removal ends.
 */
export async function pruneInstanceStatuses(store: InstanceStatusStore, scope: StatusScope): Promise<void> {
  const entries = scope.instances ?? {};
  const keep = new Set(Object.keys(entries));
  for (const r of await parseWindowsInstances(entries, [], scope.resolve)) {
    if (r.ok) keep.add(r.instance.ipv4Address);
  }
  for (const node of scope.nodes) {
    const ip = node.metadata?.labels?.[Labels.byoh] === 'true' ? nodeInternalIp(node) : undefined;
    if (ip) keep.add(ip);
  }
  // Machine statuses are the Machine controller's to prune, another listed source's statuses its own.
  const own = scope.source ?? 'byoh';
  const other = (address: string): boolean => (store.get(address)?.source ?? 'byoh') !== own;
  await store.retain(
    (address, phase) =>
      keep.has(address) ||
      phase === 'Removing' ||
      address.startsWith(MACHINE_STATUS_PREFIX) ||
      other(address),
  );
}
