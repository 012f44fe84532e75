import type { Clock } from './clock.js';

/** Decides how long a key waits before its next retry (client-go `RateLimiter`). */
export interface RateLimiter {
  when(key: string): number;
  forget(key: string): void;
  retries(key: string): number;
}

/** Per-key exponential backoff: base × 2^failures, capped (client-go: 5 ms base, 1000 s cap). */
export class ExponentialFailureRateLimiter implements RateLimiter {
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly baseMs = 5,
    private readonly maxMs = 1_000_000,
  ) {}

  when(key: string): number {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    return Math.min(this.maxMs, this.baseMs * 2 ** Math.min(n, 52));
  }

  forget(key: string): void {
    this.failures.delete(key);
  }

  retries(key: string): number {
    return this.failures.get(key) ?? 0;
  }
}

/** A global token bucket (client-go: 10 qps, burst 100): overall retry rate, whatever the key. */
export class BucketRateLimiter implements RateLimiter {
  private tokens: number;
  private last: number;

  constructor(
    private readonly clock: Clock,
    private readonly qps = 10,
    private readonly burst = 100,
  ) {
    this.tokens = burst;
    this.last = clock.now();
  }

  when(): number {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.qps) * 1000);
  }

  forget(): void {}

  retries(): number {
    return 0;
  }
}

/** The longest wait of several limiters (client-go `MaxOfRateLimiter`). */
export class MaxOfRateLimiter implements RateLimiter {
  private readonly limiters: readonly RateLimiter[];

  constructor(...limiters: RateLimiter[]) {
    this.limiters = limiters;
  }

  when(key: string): number {
    return Math.max(0, ...this.limiters.map((l) => l.when(key)));
  }

  forget(key: string): void {
    for (const l of this.limiters) l.forget(key);
  }

  retries(key: string): number {
    return Math.max(0, ...this.limiters.map((l) => l.retries(key)));
  }
}

/** client-go's default controller rate limiter: per-key exponential backoff and a global bucket. */
export function defaultControllerRateLimiter(clock: Clock): RateLimiter {
  return new MaxOfRateLimiter(
    new ExponentialFailureRateLimiter(5, 1_000_000),
    new BucketRateLimiter(clock, 10, 100),
  );
}
