import { CoreV1Api, KubeConfig, type V1Node } from '@kubernetes/client-node';
import type { SimWorld } from './sim-world.js';
import type { Workload } from './workload.js';

const unavailable = (n: V1Node): boolean =>
  n.spec?.unschedulable === true ||
  !(n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/**
 * Samples the cluster every `periodMs` during an upgrade: the most Windows nodes unavailable at once
 * (cordoned or not Ready, and which), and the fewest healthy pods of a workload (a PDB violation shows
 * as fewer than its minAvailable).
 */
export class Watchdog {
  maxUnavailable = 0;
  worst: string[] = [];
  minHealthy = Number.POSITIVE_INFINITY;
  samples = 0;
  /** Each distinct value `condition` returned, in order (e.g. `False/upgradeIsNotSafe`). */
  readonly conditions: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private busy = false;
  private readonly core: CoreV1Api;

  constructor(
    world: SimWorld,
    private readonly workload?: Workload,
    private readonly condition?: () => Promise<string | undefined>,
  ) {
    const kc = new KubeConfig();
    kc.loadFromFile(world.adminKubeconfig);
    this.core = kc.makeApiClient(CoreV1Api);
  }

  start(periodMs = 50): void {
    this.timer = setInterval(() => {
      if (this.busy) return;
      this.busy = true;
      this.sample()
        .catch(() => undefined)
        .finally(() => (this.busy = false));
    }, periodMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async sample(): Promise<void> {
    const nodes = (await this.core.listNode({ labelSelector: 'kubernetes.io/os=windows' })).items;
    const out = nodes.filter(unavailable).map((n) => n.metadata?.name ?? '');
    if (out.length > this.maxUnavailable) {
      this.maxUnavailable = out.length;
      this.worst = out;
    }
    if (this.workload) this.minHealthy = Math.min(this.minHealthy, await this.workload.healthyCount());
    const c = await this.condition?.().catch(() => undefined);
    if (c !== undefined && this.conditions.at(-1) !== c) this.conditions.push(c);
    this.samples++;
  }
}
