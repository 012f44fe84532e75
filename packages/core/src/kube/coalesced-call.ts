/**
 * One run of `fn` for any number of requests made in the same turn of the event loop. An informer's
 * initial list delivers one `add` per object synchronously: with 2,000 Nodes, requeueing every entry on
 * each of them was 2,000 full passes at start-up; coalesced it is one, run once the burst is over.
 *
 * With `minIntervalMs`, runs are also at least that far apart: a request soon after a run waits for the
 * rest of the interval, and every request until then is covered by that one run. At 1,300 joined nodes
 * the Node changes of the joins in flight asked for a pass over every entry dozens of times a second.
 * A request after a quiet spell still runs at the next turn.
 */
export class CoalescedCall {
  private pending: NodeJS.Immediate | NodeJS.Timeout | undefined;
  private cancelled = false;
  private lastRun = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly fn: () => void,
    private readonly minIntervalMs = 0,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Asks for a run; a run already asked for and not yet made covers this one. */
  request(): void {
    if (this.cancelled || this.pending) return;
    const wait = this.lastRun + this.minIntervalMs - this.now();
    const run = (): void => {
      this.pending = undefined;
      if (this.cancelled) return;
      this.lastRun = this.now();
      this.fn();
    };
    this.pending = wait > 0 ? setTimeout(run, wait) : setImmediate(run);
  }

  /** No run after this, asked for before or after. */
  cancel(): void {
    this.cancelled = true;
    if (this.pending) {
      clearImmediate(this.pending as NodeJS.Immediate);
      clearTimeout(this.pending as NodeJS.Timeout);
    }
    this.pending = undefined;
  }
}
