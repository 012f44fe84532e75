import type { V1Node } from '@kubernetes/client-node';
import type { WindowsInstance } from '../../desired/windows-instances.js';
import { nodeOwner } from '../../identity/node-ownership.js';
import { Labels } from '../../identity/node-metadata.js';
import { errorMessage } from '../../kube/logger.js';
import { nodeEventRef, type JoinDeps } from '../../lifecycle/join-deps.js';
import { nodeInternalIp } from '../../lifecycle/node-ops.js';

/** The reason of the Warning event on a Node that claims an instance through its own fields only. */
export const NODE_CLAIM_NOT_TRUSTED = 'NodeClaimNotTrusted';

type Deps = Pick<JoinDeps, 'core' | 'records' | 'events' | 'logger' | 'status'>;

/** Every Node of the cluster, as a join looks for claimants. */
export type ClusterNodes = () => Promise<readonly V1Node[]>;

/** Every Node, listed (one list of the whole cluster). */
export const listedNodes =
  (core: Deps['core']): ClusterNodes =>
  async () =>
    (await core.listNode()).items;

/**
 * Every Node: the Windows nodes from the operator's own informer and the others listed by label (a
 * selector `kubernetes.io/os!=windows` also matches Nodes without the label). Listing the whole cluster
 * at each join made a join cost the fleet: at 750 nodes the lists were the operator's largest own cost.
 */
export const informedNodes =
  (core: Deps['core'], windowsNodes: () => readonly V1Node[]): ClusterNodes =>
  async () => [...windowsNodes(), ...(await core.listNode({ labelSelector: `${Labels.os}!=windows` })).items];

/**
 * Nodes other than `joinedAs` that claim `instance` through what a kubelet writes on its own Node (the
 * instance-address annotation, the InternalIP) and that no operator record names: a Node created before
 * the first join by whoever held a kubelet identity (issue 27).
 */
export function untrustedClaimants(
  nodes: readonly V1Node[],
  instance: Pick<WindowsInstance, 'address' | 'ipv4Address'>,
  joinedAs: string,
  recorded: (nodeName: string) => boolean,
): string[] {
  return nodes
    .filter((n) => nodeOwner(n) === instance.address || nodeInternalIp(n) === instance.ipv4Address)
    .map((n) => n.metadata?.name ?? '')
    .filter((name) => name !== '' && name !== joinedAs && !recorded(name))
    .sort();
}

/**
 * At a BYOH join, once the node name is decided: every Node that claims the instance through its own
 * fields only is reported (a Warning event on it, a log line, and `untrustedNodes` in the instance's
 * status) and left alone: never adopted, annotated, connected to or removed. The join goes on under the
 * host's own name. A failure to report does not stop the join.
 */
export async function reportUntrustedClaims(
  deps: Deps,
  instance: Pick<WindowsInstance, 'address' | 'ipv4Address'>,
  joinedAs: string,
  clusterNodes: ClusterNodes = listedNodes(deps.core),
): Promise<void> {
  try {
    const nodes = await clusterNodes();
    const recorded = (name: string): boolean => deps.records.forNode(name) !== undefined;
    const names = untrustedClaimants(nodes, instance, joinedAs, recorded);
    for (const node of nodes.filter((n) => names.includes(n.metadata?.name ?? ''))) {
      const name = node.metadata?.name ?? '';
      const message =
        `Node ${name} claims instance ${instance.address} through its own annotation or address, but the ` +
        `operator has no record of joining it; not adopted, configured, connected to or removed (instance ` +
        `${instance.address} joins as node ${joinedAs})`;
      deps.logger.warn(
        { node: name, instance: instance.address },
        'node claims an instance it was not joined as',
      );
      await deps.events.record(nodeEventRef(node), 'Warning', NODE_CLAIM_NOT_TRUSTED, message);
    }
    await recordInStatus(deps, instance.ipv4Address, names);
  } catch (err) {
    deps.logger.warn(
      { instance: instance.address, err: errorMessage(err) },
      'cannot look for untrusted claims',
    );
  }
}

async function recordInStatus(deps: Deps, key: string, names: readonly string[]): Promise<void> {
  const current = deps.status.get(key);
  const before = current?.untrustedNodes ?? [];
  if (current === undefined || before.join(',') === names.join(',')) return;
  const { untrustedNodes: _before, ...rest } = current;
  await deps.status.set(names.length > 0 ? { ...rest, untrustedNodes: names } : rest);
}
