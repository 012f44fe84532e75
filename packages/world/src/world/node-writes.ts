import { KubeConfig, Watch, type V1Node } from '@kubernetes/client-node';
import type { SimWorld } from './sim-world.js';

/** The prefix of every label and annotation a wmco controller writes on its Nodes. */
const WMCO_PREFIX = 'windowsmachineconfig.openshift.io/';

/**
 * What a wmco controller writes on a Node: its wmco labels and annotations, the worker role label, the
 * taints and the cordon (not the kubelet's heartbeats or the cluster's own annotations).
 */
export function controllerWrites(n: V1Node): string {
  const pick = (m: Record<string, string> | undefined): [string, string][] =>
    Object.entries(m ?? {})
      .filter(([k]) => k.startsWith(WMCO_PREFIX) || k === 'node-role.kubernetes.io/worker')
      .sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify({
    labels: pick(n.metadata?.labels),
    annotations: pick(n.metadata?.annotations),
    taints: (n.spec?.taints ?? []).map((t) => `${t.key}=${t.value ?? ''}:${t.effect}`).sort(),
    unschedulable: n.spec?.unschedulable === true,
  });
}

interface Seen {
  readonly node: string;
  readonly uid: string;
  readonly type: string;
  readonly writes: string;
}

/**
 * Every Node event of the cluster, from a watch of the admin's, with what a controller wrote: a test marks
 * a point and later asks which Nodes a controller changed since (a write shows in the next event).
 */
export class NodeWrites {
  private readonly seen: Seen[] = [];
  private abort: (() => void) | undefined;

  static async start(world: SimWorld): Promise<NodeWrites> {
    const w = new NodeWrites();
    const kc = new KubeConfig();
    kc.loadFromFile(world.adminKubeconfig);
    const req = await new Watch(kc).watch(
      '/api/v1/nodes',
      {},
      (type: string, n: V1Node) =>
        w.seen.push({
          node: n.metadata?.name ?? '',
          uid: n.metadata?.uid ?? '',
          type,
          writes: controllerWrites(n),
        }),
      () => undefined,
    );
    w.abort = () => req.abort();
    return w;
  }

  /** A point in the event stream. */
  mark(): number {
    return this.seen.length;
  }

  /**
   * The events of `node` since `mark` that changed what a controller writes, or deleted or replaced it,
   * as `<type> <writes>` lines (empty: untouched).
   */
  changedSince(mark: number, node: string): string[] {
    const before = this.seen
      .slice(0, mark)
      .filter((s) => s.node === node)
      .at(-1);
    return this.seen
      .slice(mark)
      .filter((s) => s.node === node)
      .filter((s) => s.type === 'DELETED' || s.uid !== before?.uid || s.writes !== before.writes)
      .map((s) => `${s.type} ${s.writes}`);
  }

  stop(): void {
    this.abort?.();
  }
}
