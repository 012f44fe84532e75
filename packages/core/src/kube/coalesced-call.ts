/**
 * One run of `fn` for any number of requests made in the same turn of the event loop. An informer's
 * initial list delivers one `add` per object synchronously: with 2,000 Nodes, requeueing every entry on
 * each of them was 2,000 full passes at start-up; coalesced it is one, run once the burst is over.
 */
export class CoalescedCall {
  private pending: NodeJS.Immediate | undefined;
  private cancelled = false;

  constructor(private readonly fn: () => void) {}

  /** Asks for a run; a run already asked for and not yet made covers this one. */
  request(): void {
    if (this.cancelled || this.pending) return;
    this.pending = setImmediate(() => {
      this.pending = undefined;
      if (!this.cancelled) this.fn();
    });
  }

  /** No run after this, asked for before or after. */
  cancel(): void {
    this.cancelled = true;
    if (this.pending) clearImmediate(this.pending);
    this.pending = undefined;
  }
}
