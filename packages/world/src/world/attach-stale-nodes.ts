import { CoreV1Api, type KubeConfig, type V1Node } from '@kubernetes/client-node';

/** Nodes already named as a run's hosts will register, split by whose they are. */
export interface StaleNodes {
  /** Nodes of earlier simulated hosts (every address loopback): safe to delete. */
  readonly own: readonly string[];
  /** Other Nodes (`name (addresses)`): the operator would refuse the host that reports that name. */
  readonly foreign: readonly string[];
}

const isLoopback = (a: string): boolean => /^127\./.test(a) || a === '::1';

function addresses(n: V1Node): string[] {
  return (n.status?.addresses ?? []).filter((a) => a.type.endsWith('IP')).map((a) => a.address);
}

async function readNode(core: CoreV1Api, name: string): Promise<V1Node | undefined> {
  try {
    return await core.readNode({ name });
  } catch (e) {
    if ((e as { code?: unknown }).code === 404) return undefined;
    throw e;
  }
}

/**
 * The Nodes named `names` that already exist. One whose every IP address is loopback is a Node of an
 * earlier simulated host (a real kubelet does not report 127.0.0.0/8, and the operator refuses such
 * instances outside the simulation); its kubelet stopped with that run, and the operator would refuse
 * the new host reporting the same name ("taken by an existing Node").
 */
export async function staleNodes(kc: KubeConfig, names: readonly string[]): Promise<StaleNodes> {
  const core = kc.makeApiClient(CoreV1Api);
  const found = (await Promise.all(names.map((n) => readNode(core, n)))).filter(
    (n): n is V1Node => n !== undefined,
  );
  const own = found.filter((n) => addresses(n).length > 0 && addresses(n).every(isLoopback));
  const foreign = found.filter((n) => !own.includes(n));
  return {
    own: own.map((n) => n.metadata?.name ?? ''),
    foreign: foreign.map((n) => `${n.metadata?.name ?? ''} (${addresses(n).join(', ') || 'no address'})`),
  };
}

/** The warning for Nodes that are not attach mode's (it never deletes them). */
export function foreignNodesMessage(nodes: readonly string[]): string {
  return (
    `warning: the cluster has Nodes named as this run's hosts would register: ${nodes.join(', ')}; they ` +
    'are not Nodes of earlier simulated hosts (not every address is loopback) and stay as they are: the ' +
    'operator will refuse a host reporting a taken name (give the hosts other names with --hosts-file)'
  );
}

/** Deletes the Nodes of earlier simulated hosts (their node Leases go with them: owner references). */
export async function deleteNodes(kc: KubeConfig, names: readonly string[]): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api);
  for (const name of names)
    await core.deleteNode({ name }).catch((e: unknown) => {
      if ((e as { code?: unknown }).code !== 404) throw e;
    });
}
