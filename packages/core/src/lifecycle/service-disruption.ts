/**
 * How many Ready nodes may be disrupted at once (a running service restarted, e.g. containerd and the
 * kubelet to read a new proxy). The seam the lifecycle's disruption budget implements; the drift repair
 * asks it before it restarts services on a Ready node.
 */
export interface ServiceDisruption {
  /** Runs `work` once `node` may be disrupted; the node counts against the budget until `work` settles. */
  disrupt<T>(node: string, work: () => Promise<T>): Promise<T>;
}

/** At most `max` nodes disrupted at once, the others wait in arrival order. */
export class ConcurrencyBudget implements ServiceDisruption {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** The most nodes ever disrupted at once (for tests and metrics). */
  peak = 0;

  constructor(readonly max = 1) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`max must be a positive integer, got ${max}`);
  }

  async disrupt<T>(_node: string, work: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    this.peak = Math.max(this.peak, this.active);
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
