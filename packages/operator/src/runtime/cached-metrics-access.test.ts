import test from 'ava';
import {
  CachedMetricsAccess,
  DEFAULT_METRICS_ACCESS_LIMITS,
  ReviewsThrottledError,
} from './cached-metrics-access.js';
import type { MetricsAccess, ReviewedUser } from './metrics-access.js';

const PROMETHEUS: ReviewedUser = {
  username: 'system:serviceaccount:openshift-monitoring:prometheus-k8s',
  groups: [],
};

/** An API server that knows one token and grants one user; counts the reviews it answers. */
function apiServer(fail?: string): MetricsAccess & { tokenReviews: number; accessReviews: number } {
  const s = {
    tokenReviews: 0,
    accessReviews: 0,
    authenticate(token: string): Promise<ReviewedUser | undefined> {
      s.tokenReviews++;
      if (fail) return Promise.reject(new Error(`${fail}: spec.token=${token}`));
      return Promise.resolve(token === 'good' ? PROMETHEUS : undefined);
    },
    authorize(user: ReviewedUser): Promise<boolean> {
      s.accessReviews++;
      return Promise.resolve(user.username === PROMETHEUS.username);
    },
  };
  return s;
}

function clock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1_000_000;
  return { now: () => t, advance: (ms) => (t += ms) };
}

test('requests with the same token make one review of each kind within the TTL', async (t) => {
  const api = apiServer();
  const c = clock();
  const access = new CachedMetricsAccess(api, DEFAULT_METRICS_ACCESS_LIMITS, c.now);
  // Concurrent requests share the review in flight; later ones are answered from the cache.
  const users = await Promise.all(Array.from({ length: 10 }, () => access.authenticate('good')));
  for (let i = 0; i < 10; i++)
    t.true(await access.authorize((await access.authenticate('good'))!, '/metrics'));
  t.deepEqual(users[0], PROMETHEUS);
  t.is(api.tokenReviews, 1);
  t.is(api.accessReviews, 1);
  c.advance(DEFAULT_METRICS_ACCESS_LIMITS.authenticatedTtlMs + 1);
  await access.authenticate('good');
  t.is(api.tokenReviews, 2, 'asked again once the answer expired');
});

test('unknown tokens and denials are kept for a shorter time', async (t) => {
  const api = apiServer();
  const c = clock();
  const access = new CachedMetricsAccess(api, DEFAULT_METRICS_ACCESS_LIMITS, c.now);
  t.is(await access.authenticate('bad'), undefined);
  t.false(await access.authorize({ username: 'nobody', groups: [] }, '/metrics'));
  await access.authenticate('bad');
  await access.authorize({ username: 'nobody', groups: [] }, '/metrics');
  t.is(api.tokenReviews + api.accessReviews, 2);
  c.advance(DEFAULT_METRICS_ACCESS_LIMITS.deniedTtlMs + 1);
  await access.authenticate('bad');
  await access.authorize({ username: 'nobody', groups: [] }, '/metrics');
  t.is(api.tokenReviews + api.accessReviews, 4);
});

test('a flood of distinct tokens costs at most the burst, then the rate; the rest is refused unasked', async (t) => {
  const api = apiServer();
  const c = clock();
  const limits = { ...DEFAULT_METRICS_ACCESS_LIMITS, reviewsPerSecond: 2, reviewBurst: 5 };
  const access = new CachedMetricsAccess(api, limits, c.now);
  const results = await Promise.allSettled(
    Array.from({ length: 100 }, (_, i) => access.authenticate(`t${i}`)),
  );
  t.is(api.tokenReviews, 5);
  const refused = results.filter((r) => r.status === 'rejected').map((r) => r.reason as unknown);
  t.is(refused.length, 95);
  t.true(refused.every((e) => e instanceof ReviewsThrottledError && e.retryAfterSeconds >= 1));
  c.advance(1000);
  await Promise.allSettled(Array.from({ length: 100 }, (_, i) => access.authenticate(`u${i}`)));
  t.is(api.tokenReviews, 7, 'one second later: two more');
  t.is(await access.authenticate('t0'), undefined, 'an answered token is still answered from the cache');
  t.is(api.tokenReviews, 7);
});

test('the caches are bounded: the least recently used answer is dropped', async (t) => {
  const api = apiServer();
  const limits = { ...DEFAULT_METRICS_ACCESS_LIMITS, maxEntries: 3, reviewBurst: 100 };
  const access = new CachedMetricsAccess(api, limits, clock().now);
  for (const tok of ['a', 'b', 'c', 'a', 'd']) await access.authenticate(tok);
  t.is(api.tokenReviews, 4);
  await access.authenticate('a');
  t.is(api.tokenReviews, 4, 'a was used recently: kept');
  await access.authenticate('b');
  t.is(api.tokenReviews, 5, 'b was the least recently used: dropped');
});

test('a failed review is not kept, and its error never carries the token', async (t) => {
  const api = apiServer('connection reset');
  const access = new CachedMetricsAccess(api, DEFAULT_METRICS_ACCESS_LIMITS, clock().now);
  const err = await t.throwsAsync(access.authenticate('s3cr3t-token'));
  t.false(err.message.includes('s3cr3t-token'), err.message);
  t.regex(err.message, /connection reset: spec.token=\[token\]/);
  await t.throwsAsync(access.authenticate('s3cr3t-token'));
  t.is(api.tokenReviews, 2);
});
