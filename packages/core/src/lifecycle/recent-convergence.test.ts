import test from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import { RecentConvergence } from './recent-convergence.js';

const T0 = Date.parse('2026-11-24T03:00:00Z');
const MINUTE = 60_000;

/** A Ready node whose Ready condition last changed at `since`. */
const readyNode = (since: number): V1Node => ({
  metadata: { name: 'win-a' },
  status: {
    conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: new Date(since) }],
  },
});

function recent(): { r: RecentConvergence; at: (ms: number) => void } {
  let now = T0;
  return { r: new RecentConvergence(() => now), at: (ms) => (now = ms) };
}

test('a host never looked at, or looked at longer ago than the interval, is due now', (t) => {
  const { r, at } = recent();
  t.is(r.dueIn('10.0.0.5', readyNode(T0 - MINUTE), 10 * MINUTE), undefined);
  r.looked('10.0.0.5', T0 - MINUTE);
  at(T0 + 10 * MINUTE);
  t.is(r.dueIn('10.0.0.5', readyNode(T0 - MINUTE), 10 * MINUTE), undefined);
});

test('a host just joined (or checked) is due when the interval has passed since, not before', (t) => {
  const { r, at } = recent();
  // A join that took a minute; its node became Ready during it.
  r.looked('10.0.0.5', T0 - MINUTE);
  at(T0 + 4 * MINUTE);
  t.is(r.dueIn('10.0.0.5', readyNode(T0 - 30_000), 10 * MINUTE), 6 * MINUTE);
  t.is(r.dueIn('10.0.0.6', readyNode(T0 - 30_000), 10 * MINUTE), undefined, 'another host is not');
});

test('a cluster configuration change makes every host due now, also one whose work read the configuration before it', (t) => {
  const { r, at } = recent();
  r.looked('10.0.0.5', T0 - MINUTE);
  at(T0 + MINUTE);
  r.configChanged();
  t.is(r.dueIn('10.0.0.5', readyNode(T0 - MINUTE), 10 * MINUTE), undefined);
  // A join that began before the change and ended after it.
  at(T0 + 2 * MINUTE);
  r.looked('10.0.0.6', T0);
  t.is(r.dueIn('10.0.0.6', readyNode(T0), 10 * MINUTE), undefined);
  // One that began after it is recent.
  r.looked('10.0.0.7', T0 + 90_000);
  t.is(r.dueIn('10.0.0.7', readyNode(T0), 10 * MINUTE), 10 * MINUTE);
});

test('a node that went NotReady and came back since is due now; a forgotten host too', (t) => {
  const { r, at } = recent();
  r.looked('10.0.0.5', T0 - MINUTE);
  at(T0 + MINUTE);
  t.is(r.dueIn('10.0.0.5', readyNode(T0 + 30_000), 10 * MINUTE), undefined);
  t.is(r.dueIn('10.0.0.5', readyNode(T0 - 30_000), 10 * MINUTE), 9 * MINUTE);
  r.forget('10.0.0.5');
  t.is(r.dueIn('10.0.0.5', readyNode(T0 - 30_000), 10 * MINUTE), undefined);
});
