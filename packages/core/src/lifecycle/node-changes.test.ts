import test from 'ava';
import type { CoreV1Api, V1Node } from '@kubernetes/client-node';
import { FakeClock } from '../kube/fake-clock.js';
import { NodeChangeFeed, waitForNode } from './node-changes.js';

const node = (name: string, annotations: Record<string, string> = {}): V1Node => ({
  metadata: { name, annotations },
});

/** A CoreV1Api whose readNode answers from `current` (404 while undefined) and counts the reads. */
function fakeCore(current: () => V1Node | undefined): { core: CoreV1Api; reads: () => number } {
  let reads = 0;
  const core = {
    readNode: () => {
      reads++;
      const n = current();
      return n ? Promise.resolve(n) : Promise.reject(Object.assign(new Error('not found'), { code: 404 }));
    },
  } as unknown as CoreV1Api;
  return { core, reads: () => reads };
}

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));
const timings = { nodeRegistrationMs: 600_000, nodeReadyMs: 600_000, pollMs: 1000 };
const hasSubnet = (n: V1Node): boolean => Boolean(n.metadata?.annotations?.['subnet']);

test('the feed calls the subscribers of that Node only, and keeps nothing after they leave', (t) => {
  const feed = new NodeChangeFeed();
  const seen: string[] = [];
  const offA = feed.subscribe('win-a', (n) => seen.push(`a:${n.metadata?.name}`));
  const offB = feed.subscribe('win-b', (n) => seen.push(`b:${n.metadata?.name}`));
  feed.publish(node('win-a'));
  feed.publish(node('win-c'));
  t.deepEqual(seen, ['a:win-a']);
  t.is(feed.watched, 2);
  offA();
  offB();
  feed.publish(node('win-a'));
  t.deepEqual(seen, ['a:win-a']);
  t.is(feed.watched, 0);
});

test('waitForNode ends on the watch event that satisfies it: one read at the start, no poll interval', async (t) => {
  const feed = new NodeChangeFeed();
  const clock = new FakeClock();
  let current: V1Node | undefined;
  const api = fakeCore(() => current);
  const deps = { core: api.core, timings, nodeChanges: feed };
  const waiting = waitForNode(deps, 'win-a', hasSubnet, { signal: new AbortController().signal, clock });
  await flush();
  t.is(api.reads(), 1, 'the API server is read once, when the wait starts');
  current = node('win-a');
  feed.publish(current); // registered, no subnet yet: not enough
  current = node('win-a', { subnet: '10.132.1.0/24' });
  feed.publish(current);
  const found = await waiting;
  t.is(found.metadata?.annotations?.['subnet'], '10.132.1.0/24');
  t.is(api.reads(), 1, 'the event carried the Node: no read after it');
  t.is(clock.pendingTimers, 0);
  t.is(feed.watched, 0);
});

test('without a feed (or a stalled watch) the Node is read every pollMs', async (t) => {
  const clock = new FakeClock();
  const cluster: { node?: V1Node } = {};
  const api = fakeCore(() => cluster.node);
  const waiting = waitForNode({ core: api.core, timings }, 'win-a', hasSubnet, {
    signal: new AbortController().signal,
    clock,
  });
  await flush();
  cluster.node = node('win-a', { subnet: '10.132.1.0/24' });
  t.is(api.reads(), 1);
  clock.advance(1000);
  t.truthy(await waiting);
  t.is(api.reads(), 2);
});
