import type { V1Node } from '@kubernetes/client-node';
import test from 'ava';
import type { WindowsHost } from '../host/windows-host.js';
import { testDeps, testNode } from './lifecycle.test-helper.js';
import { NodeMaintenance } from './maintenance.js';

const withReady = (n: V1Node, status: 'True' | 'False'): V1Node => ({
  ...n,
  status: { conditions: [{ type: 'Ready', status }] },
});
const ready = (n: V1Node): V1Node => withReady(n, 'True');
const notReady = (n: V1Node): V1Node => withReady(n, 'False');

test('a slot freed while nodes wait for the budget puts every source’s nodes on its queue at once', (t) => {
  const nodes = [ready(testNode('win-a')), ready(testNode('win-b', '10.0.0.6'))];
  const m = new NodeMaintenance(testDeps({} as WindowsHost), () => nodes, {
    maxUnavailable: { kind: 'count', count: 1 },
  });
  let requeued = 0;
  m.addSource({ id: 'byoh', requeueAll: () => requeued++ });
  t.true(m.budget.tryAcquire('win-a').granted);
  m.budget.release('win-a');
  t.is(requeued, 0, 'nobody waited: nothing to hand on');
  t.true(m.budget.tryAcquire('win-a').granted);
  t.false(m.budget.tryAcquire('win-b').granted);
  m.budget.release('win-a');
  t.is(requeued, 1, 'win-b is looked at now, not at its 30 s retry');
});

test('a node the cache sees back in service puts every source’s nodes on its queue when one waits', (t) => {
  const nodes = [notReady(testNode('win-a')), ready(testNode('win-b', '10.0.0.6'))];
  const m = new NodeMaintenance(testDeps({} as WindowsHost), () => nodes, {
    maxUnavailable: { kind: 'count', count: 1 },
  });
  const requeued: string[] = [];
  m.addSource({ id: 'byoh', requeueAll: () => requeued.push('byoh') });
  m.addSource({ id: 'machine', requeueAll: () => requeued.push('machine') });
  t.false(m.budget.tryAcquire('win-b').granted, 'win-a is not Ready');
  const back = ready(testNode('win-a'));
  m.nodeChanged(nodes[0], back);
  t.deepEqual(requeued, ['byoh', 'machine'], 'win-b is looked at now, not at its 30 s retry');
});

test('a source that can requeue nodes by name gets the names that waited, not a requeue of all', (t) => {
  const nodes = ['win-a', 'win-b', 'win-c'].map((n, i) => ready(testNode(n, `10.0.0.${i + 5}`)));
  const m = new NodeMaintenance(testDeps({} as WindowsHost), () => nodes, {
    maxUnavailable: { kind: 'count', count: 1 },
  });
  const asked: (readonly string[])[] = [];
  let all = 0;
  m.addSource({ id: 'byoh', requeueAll: () => all++, requeueWaiting: (names) => asked.push(names) });
  let fallback = 0;
  m.addSource({ id: 'other', requeueAll: () => fallback++ });
  t.true(m.budget.tryAcquire('win-a').granted);
  t.false(m.budget.tryAcquire('win-c').granted);
  t.false(m.budget.tryAcquire('win-b').granted);
  m.budget.release('win-a');
  t.deepEqual(asked, [['win-b', 'win-c']]);
  t.is(all, 0, 'the fleet’s other nodes are not looked at');
  t.is(fallback, 1, 'a source that cannot requeue by name looks at all of its nodes');
});
