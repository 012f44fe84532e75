/**
 * A token bucket: `burst` tokens at most, refilled at `perSecond`; `take()` spends one when there is one
 * and never waits. Time comes from `now` (milliseconds).
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** Spends a token; false when the bucket is empty. */
  take(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Milliseconds until a token is there again (0 when one is). */
  waitMs(): number {
    const t = this.now();
    const tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) / this.perSecond) * 1000);
  }
}
