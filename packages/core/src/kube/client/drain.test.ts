import test from 'ava';
import type { CoreV1Api } from '@kubernetes/client-node';
import { drainNode, DrainError } from './drain.js';

/** A node with one pod whose PodDisruptionBudget refuses every eviction (429). */
const blockedCore = {
  listPodForAllNamespaces: () =>
    Promise.resolve({ items: [{ metadata: { name: 'web-1', namespace: 'app', uid: 'u1' } }] }),
  createNamespacedPodEviction: () => Promise.reject(Object.assign(new Error('429'), { code: 429 })),
} as unknown as CoreV1Api;

test('a stop during the pause between eviction passes ends the drain at once, not after the pause', async (t) => {
  const stop = new AbortController();
  // A pause of an hour: the drain ends only if the abort cuts it short.
  const drained = drainNode(blockedCore, 'win-a', {
    timeoutMs: 10 * 3_600_000,
    retryMs: 3_600_000,
    signal: stop.signal,
    onWaiting: () => stop.abort(),
  });
  const err = await t.throwsAsync(drained, { instanceOf: DrainError });
  t.regex(err?.message ?? '', /interrupted; still there: app\/web-1/);
});
