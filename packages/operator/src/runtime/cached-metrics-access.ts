import { createHash } from 'node:crypto';
import type { MetricsAccess, ReviewedUser } from './metrics-access.js';
import { TokenBucket } from './token-bucket.js';
import { TtlLru } from './ttl-lru.js';

/** How long answers are kept and how many reviews the API server is asked for. */
export interface MetricsAccessLimits {
  /** A token the API server authenticated (kube-rbac-proxy's TokenReview cache: 2 minutes). */
  readonly authenticatedTtlMs: number;
  /** A token the API server does not know. */
  readonly unauthenticatedTtlMs: number;
  /** An allowed SubjectAccessReview (kube-rbac-proxy, controller-runtime: 5 minutes). */
  readonly allowedTtlMs: number;
  /** A denied SubjectAccessReview (kube-rbac-proxy, controller-runtime: 30 seconds). */
  readonly deniedTtlMs: number;
  /** Answers kept per cache (least recently used dropped first). */
  readonly maxEntries: number;
  /** Reviews (TokenReview or SubjectAccessReview) sent per second, and at once after a quiet spell. */
  readonly reviewsPerSecond: number;
  readonly reviewBurst: number;
}

export const DEFAULT_METRICS_ACCESS_LIMITS: MetricsAccessLimits = {
  authenticatedTtlMs: 120_000,
  unauthenticatedTtlMs: 30_000,
  allowedTtlMs: 300_000,
  deniedTtlMs: 30_000,
  maxEntries: 1000,
  reviewsPerSecond: 5,
  reviewBurst: 20,
};

/** More reviews were needed than the rate allows: the request is refused without asking the API server. */
export class ReviewsThrottledError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`too many new /metrics callers: review rate exceeded, retry in ${retryAfterSeconds}s`);
    this.name = 'ReviewsThrottledError';
  }
}

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * `MetricsAccess` with the API server's answers kept briefly, keyed by a hash of the token (the token itself
 * is never kept or logged), and at most `reviewsPerSecond` new reviews: a flood of unknown tokens costs the
 * API server a bounded number of reviews, and the requests beyond it are refused (ReviewsThrottledError).
 * Concurrent requests with one token share one review. A failed review is not kept.
 */
export class CachedMetricsAccess implements MetricsAccess {
  private readonly users: TtlLru<Promise<ReviewedUser | undefined>>;
  private readonly grants: TtlLru<Promise<boolean>>;
  private readonly bucket: TokenBucket;

  constructor(
    private readonly inner: MetricsAccess,
    private readonly limits: MetricsAccessLimits = DEFAULT_METRICS_ACCESS_LIMITS,
    now: () => number = Date.now,
  ) {
    this.users = new TtlLru(limits.maxEntries, now);
    this.grants = new TtlLru(limits.maxEntries, now);
    this.bucket = new TokenBucket(limits.reviewsPerSecond, limits.reviewBurst, now);
  }

  authenticate(token: string): Promise<ReviewedUser | undefined> {
    const key = digest(token);
    return this.cached(this.users, key, {
      review: () => this.inner.authenticate(token),
      ttl: (user) => (user ? this.limits.authenticatedTtlMs : this.limits.unauthenticatedTtlMs),
      scrub: (message) => message.split(token).join('[token]'),
    });
  }

  authorize(user: ReviewedUser, path: string): Promise<boolean> {
    const key = digest(JSON.stringify([user.username, user.uid, user.groups, user.extra, path]));
    return this.cached(this.grants, key, {
      review: () => this.inner.authorize(user, path),
      ttl: (allowed) => (allowed ? this.limits.allowedTtlMs : this.limits.deniedTtlMs),
      scrub: (message) => message,
    });
  }

  private cached<V>(
    cache: TtlLru<Promise<V>>,
    key: string,
    how: { review: () => Promise<V>; ttl: (v: V) => number; scrub: (message: string) => string },
  ): Promise<V> {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    if (!this.bucket.take())
      return Promise.reject(new ReviewsThrottledError(Math.max(1, Math.ceil(this.bucket.waitMs() / 1000))));
    const pending = how.review().then(
      (v) => {
        cache.set(key, Promise.resolve(v), how.ttl(v));
        return v;
      },
      (err: unknown) => {
        cache.delete(key);
        throw new Error(how.scrub(err instanceof Error ? err.message : String(err)));
      },
    );
    // Until it is answered, requests with the same key wait for this review instead of sending another.
    cache.set(key, pending, this.limits.unauthenticatedTtlMs);
    return pending;
  }
}
