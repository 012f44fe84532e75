import {
  CoreV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
  type V1Node,
} from '@kubernetes/client-node';
import { HYBRID_SUBNET_ANNOTATION, formatCidr, nthSubnet, parseCidr } from '@wmco/sim';

/** ovnkube's per-node annotation: a Node carrying it means a real OVN-Kubernetes runs in the cluster. */
export const OVN_NODE_SUBNETS = 'k8s.ovn.org/node-subnets';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null ? (v as Obj) : {});

/** Why the stand-in is off (a Node names the real ovnkube), or undefined when it must run. */
export async function realOvnKube(kc: KubeConfig): Promise<string | undefined> {
  const nodes = await kc.makeApiClient(CoreV1Api).listNode();
  const n = nodes.items.find((x) => x.metadata?.annotations?.[OVN_NODE_SUBNETS] !== undefined);
  return n ? `node ${n.metadata?.name ?? '?'} carries ${OVN_NODE_SUBNETS} (a real ovnkube)` : undefined;
}

/**
 * Stand-in for OVN-Kubernetes' hybrid-overlay master on a cluster without it, through the API only:
 * each Windows Node without `k8s.ovn.org/hybrid-overlay-node-subnet` gets the first free /hostPrefix of
 * network.operator `cluster`'s first hybridClusterNetwork. The patch carries the Node's resourceVersion,
 * so it never overwrites a subnet someone else (a real annotator) wrote in between.
 */
export class HybridOverlayStandIn {
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly kc: KubeConfig,
    private readonly onError: (e: unknown) => void,
    private readonly periodMs = 300,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.periodMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async network(): Promise<{ cidr: string; hostPrefix: number } | undefined> {
    const net: unknown = await this.kc.makeApiClient(CustomObjectsApi).getClusterCustomObject({
      group: 'operator.openshift.io',
      version: 'v1',
      plural: 'networks',
      name: 'cluster',
    });
    const hybrid = obj(
      obj(obj(obj(obj(net)['spec'])['defaultNetwork'])['ovnKubernetesConfig'])['hybridOverlayConfig'],
    );
    const first = obj((hybrid['hybridClusterNetwork'] as unknown[] | undefined)?.[0]);
    const cidr = first['cidr'];
    if (typeof cidr !== 'string') return undefined;
    return { cidr, hostPrefix: typeof first['hostPrefix'] === 'number' ? first['hostPrefix'] : 23 };
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.annotate();
    } catch (e) {
      this.onError(e);
    } finally {
      this.running = false;
    }
  }

  private async annotate(): Promise<void> {
    const core = this.kc.makeApiClient(CoreV1Api);
    const nodes = (await core.listNode({ labelSelector: 'kubernetes.io/os=windows' })).items;
    const todo = nodes.filter((n) => n.metadata?.annotations?.[HYBRID_SUBNET_ANNOTATION] === undefined);
    if (todo.length === 0) return;
    const net = await this.network();
    if (!net) throw new Error('network.operator.openshift.io/cluster has no hybridClusterNetwork');
    const used = new Set(nodes.map((n) => n.metadata?.annotations?.[HYBRID_SUBNET_ANNOTATION]));
    for (const n of todo) {
      const subnet = freeSubnet(net, used);
      used.add(subnet);
      await patchSubnet(core, n, subnet);
    }
  }
}

function freeSubnet(
  net: { cidr: string; hostPrefix: number },
  used: ReadonlySet<string | undefined>,
): string {
  const base = parseCidr(net.cidr);
  for (let i = 0; ; i++) {
    const sub = nthSubnet(base, net.hostPrefix, i);
    if (!sub)
      throw new Error(`hybrid cluster network ${net.cidr} has no free /${net.hostPrefix} subnet left`);
    if (!used.has(formatCidr(sub))) return formatCidr(sub);
  }
}

async function patchSubnet(core: CoreV1Api, n: V1Node, subnet: string): Promise<void> {
  const body = {
    metadata: {
      resourceVersion: n.metadata?.resourceVersion,
      annotations: { [HYBRID_SUBNET_ANNOTATION]: subnet },
    },
  };
  await core
    .patchNode(
      { name: n.metadata?.name ?? '', body },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    )
    .catch((e: unknown) => {
      // 409: the Node changed since it was listed; the next round looks again.
      if ((e as { code?: unknown }).code !== 409) throw e;
    });
}
