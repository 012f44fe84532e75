import type { StoreEvent } from '../apiserver/event-log.js';
import { isObject, meta, str, strMap, type JsonObject } from '../apiserver/json.js';
import { StoreEventController } from './controller.js';
import { formatCidr, nthSubnet, parseCidr } from './ipv4.js';

export const HYBRID_SUBNET_ANNOTATION = 'k8s.ovn.org/hybrid-overlay-node-subnet';

function obj(v: unknown): JsonObject {
  return isObject(v) ? v : {};
}

/**
 * OVN-Kubernetes' hybrid-overlay master: every Windows Node (label kubernetes.io/os=windows) gets a
 * `k8s.ovn.org/hybrid-overlay-node-subnet` from the first hybridClusterNetwork of network.operator
 * `cluster` (one /hostPrefix per node, never reused while the node exists).
 */
export class HybridOverlayAnnotator extends StoreEventController {
  readonly name = 'hybrid-overlay';
  /**
   * Fault: the value written for a node instead of the allocated subnet (undefined: allocate), standing
   * for anyone who may patch Nodes (a node's own credentials, a compromised controller).
   */
  hostileSubnet: ((nodeName: string) => string | undefined) | undefined;

  private network(): { cidr: string; hostPrefix: number } | undefined {
    const t = this.writer.registry.find('operator.openshift.io', 'v1', 'networks');
    const net = t ? this.writer.store.get(t, undefined, 'cluster') : undefined;
    const hybrid = obj(
      obj(obj(obj(net?.['spec'])['defaultNetwork'])['ovnKubernetesConfig'])['hybridOverlayConfig'],
    );
    const list = Array.isArray(hybrid['hybridClusterNetwork'])
      ? hybrid['hybridClusterNetwork'].filter(isObject)
      : [];
    const first = list[0];
    const cidr = str(first?.['cidr']);
    return cidr === undefined
      ? undefined
      : { cidr, hostPrefix: typeof first?.['hostPrefix'] === 'number' ? first['hostPrefix'] : 23 };
  }

  /** The first /hostPrefix of the network no Node holds. */
  private freeSubnet(
    net: { cidr: string; hostPrefix: number },
    used: ReadonlySet<string | undefined>,
  ): string {
    const base = parseCidr(net.cidr);
    for (let i = 0; ; i++) {
      const sub = nthSubnet(base, net.hostPrefix, i);
      if (!sub)
        throw new Error(`hybrid cluster network ${net.cidr} has no free /${net.hostPrefix} subnet left`);
      const s = formatCidr(sub);
      if (!used.has(s)) return s;
    }
  }

  protected handle(e: StoreEvent): void {
    if (e.typeKey !== '/v1/nodes' || e.type === 'DELETED') return;
    const m = meta(e.object);
    if (strMap(m['labels'])['kubernetes.io/os'] !== 'windows') return;
    if (strMap(m['annotations'])[HYBRID_SUBNET_ANNOTATION] !== undefined) return;
    const net = this.network();
    if (!net) return;
    const nodeType = this.writer.registry.mustFind('', 'v1', 'nodes');
    const used = new Set(
      this.writer.store.all(nodeType).map((n) => strMap(meta(n)['annotations'])[HYBRID_SUBNET_ANNOTATION]),
    );
    const name = str(m['name']) ?? '';
    // Deleted since this event (an informer's controller gets NotFound and drops the key).
    if (!this.writer.store.get(nodeType, undefined, name)) return;
    const s = this.hostileSubnet?.(name) ?? this.freeSubnet(net, used);
    this.writer.mutate({ type: nodeType, namespace: undefined, name }, (n) => {
      const nm = meta(n);
      nm['annotations'] = { ...strMap(nm['annotations']), [HYBRID_SUBNET_ANNOTATION]: s };
      return n;
    });
  }
}
