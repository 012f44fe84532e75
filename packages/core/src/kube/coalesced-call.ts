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
  /** Cancels the run asked for and not yet made. */
  private pending: (() => void) | undefined;
  private cancelled = false;
  private lastRun = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly fn: () => void,
    private readonly minIntervalMs = 0,
  ) {}

  /** Asks for a run; a run already asked for and not yet made covers this one. */
  request(): void {
    if (this.cancelled || this.pending) return;
    this.schedule();
  }

  private schedule(): void {
    const wait = this.lastRun + this.minIntervalMs - performance.now();
    const run = (): void => {
      this.pending = undefined;
      if (this.cancelled) return;
      // A timer counts from the event loop's cached time, so it can fire a little before `wait` has passed.
      if (this.lastRun + this.minIntervalMs > performance.now()) return this.schedule();
      this.lastRun = performance.now();
      this.fn();
    };
    if (wait > 0) {
      const timer = setTimeout(run, wait);
      this.pending = () => clearTimeout(timer);
    } else {
      const immediate = setImmediate(run);
      this.pending = () => clearImmediate(immediate);
    }
  }

  /** No run after this, asked for before or after. */
  cancel(): void {
    this.cancelled = true;
    this.pending?.();
    this.pending = undefined;
  }
}
