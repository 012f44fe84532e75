import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { UnavailabilityTracker } from './node-unavailability.js';
import type { SimWorld } from './sim-world.js';
import { watchUnavailability } from './unavailability-watch.js';
import type { Workload } from './workload.js';

/**
 * Watches the cluster during an upgrade. The most Windows nodes unavailable at once (cordoned or not
 * Ready, and which) come from a watch of the Windows Nodes, so a node cordoned and uncordoned between two
 * looks is still counted. The fewest healthy pods of a workload (a PDB violation shows as fewer than its
 * minAvailable) and the distinct values of `condition` are sampled every `periodMs`.
 */
export class Watchdog {
  minHealthy = Number.POSITIVE_INFINITY;
  samples = 0;
  /** Each distinct value `condition` returned, in order (e.g. `False/upgradeIsNotSafe`). */
  readonly conditions: string[] = [];
  private readonly tracker = new UnavailabilityTracker();
  private stopWatch: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private busy = false;
  private readonly core: CoreV1Api;

  constructor(
    private readonly world: SimWorld,
    private readonly workload?: Workload,
    private readonly condition?: () => Promise<string | undefined>,
  ) {
    const kc = new KubeConfig();
    kc.loadFromFile(world.adminKubeconfig);
    this.core = kc.makeApiClient(CoreV1Api);
  }

  /** The most Windows nodes unavailable at once since `start`. */
  get maxUnavailable(): number {
    return this.tracker.maxSeen;
  }

  /** The nodes unavailable when the most were. */
  get worst(): readonly string[] {
    return this.tracker.maxSeenNodes;
  }

  /** Resolves once the Node watch is open: what happens after it is seen. */
  async start(periodMs = 50): Promise<void> {
    this.stopWatch = await watchUnavailability(this.world, this.tracker, 'kubernetes.io/os=windows');
    if (!this.workload && !this.condition) return;
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
    this.stopWatch?.();
  }

  private async sample(): Promise<void> {
    if (this.workload) this.minHealthy = Math.min(this.minHealthy, await this.workload.healthyCount());
    const c = await this.condition?.().catch(() => undefined);
    if (c !== undefined && this.conditions.at(-1) !== c) this.conditions.push(c);
    this.samples++;
  }
}
