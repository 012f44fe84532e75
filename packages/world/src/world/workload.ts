import { CoreV1Api, KubeConfig, PolicyV1Api, type V1Node, type V1Pod } from '@kubernetes/client-node';
import type { SimWorld } from './sim-world.js';

const WINDOWS = 'kubernetes.io/os=windows';
const schedulable = (n: V1Node): boolean =>
  !n.spec?.unschedulable &&
  (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

function healthy(p: V1Pod): boolean {
  return (
    p.metadata?.deletionTimestamp === undefined &&
    p.status?.phase === 'Running' &&
    (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')
  );
}

/**
 * A test's stand-in for a Deployment on the Windows nodes: `replicas` pods labelled `app=<name>`, bound to
 * schedulable Windows nodes and marked Running/Ready, a PodDisruptionBudget over them, and a loop that
 * replaces evicted pods on another schedulable node (what the ReplicaSet controller and the scheduler do).
 */
export class Workload {
  private timer: NodeJS.Timeout | undefined;
  private busy = false;
  private serial = 0;
  readonly core: CoreV1Api;
  readonly policy: PolicyV1Api;

  constructor(
    world: SimWorld,
    readonly name: string,
    readonly namespace: string,
    readonly replicas: number,
  ) {
    const kc = new KubeConfig();
    kc.loadFromFile(world.adminKubeconfig);
    this.core = kc.makeApiClient(CoreV1Api);
    this.policy = kc.makeApiClient(PolicyV1Api);
  }

  async start(minAvailable: number): Promise<void> {
    await this.policy.createNamespacedPodDisruptionBudget({
      namespace: this.namespace,
      body: {
        metadata: { name: this.name },
        spec: { minAvailable, selector: { matchLabels: { app: this.name } } },
      },
    });
    await this.fill();
    this.timer = setInterval(() => {
      if (this.busy) return;
      this.busy = true;
      this.fill()
        .catch(() => undefined)
        .finally(() => (this.busy = false));
    }, 100);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async pods(): Promise<V1Pod[]> {
    const list = await this.core.listNamespacedPod({
      namespace: this.namespace,
      labelSelector: `app=${this.name}`,
    });
    return list.items;
  }

  async healthyCount(): Promise<number> {
    return (await this.pods()).filter(healthy).length;
  }

  /** Creates a pod bound to `nodeName`, Running and Ready. */
  async place(nodeName: string): Promise<string> {
    const name = `${this.name}-${++this.serial}`;
    const pod = await this.core.createNamespacedPod({
      namespace: this.namespace,
      body: {
        metadata: { name, labels: { app: this.name } },
        spec: {
          nodeName,
          containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/servercore:ltsc2022' }],
          tolerations: [{ key: 'os', value: 'Windows', effect: 'NoSchedule' }],
        },
      },
    });
    await this.core.replaceNamespacedPodStatus({
      name,
      namespace: this.namespace,
      body: {
        ...pod,
        status: {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: new Date() }],
        },
      },
    });
    return name;
  }

  private async fill(): Promise<void> {
    const missing = this.replicas - (await this.pods()).length;
    if (missing <= 0) return;
    const nodes = (await this.core.listNode({ labelSelector: WINDOWS })).items.filter(schedulable);
    for (let i = 0; i < missing && nodes.length > 0; i++) {
      await this.place(nodes[(this.serial + i) % nodes.length]?.metadata?.name ?? '');
    }
  }
}
