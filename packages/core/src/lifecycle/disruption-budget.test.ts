import type { V1Node } from '@kubernetes/client-node';
import test from 'ava';
import { DisruptionBudget, unavailableReason } from './disruption-budget.js';
import { LIFECYCLE_PHASE_ANNOTATION } from './lifecycle-annotations.js';

function node(name: string, o: { ready?: boolean; phase?: string; cordoned?: boolean } = {}): V1Node {
  return {
    metadata: { name, annotations: o.phase ? { [LIFECYCLE_PHASE_ANNOTATION]: o.phase } : {} },
    spec: o.cordoned ? { unschedulable: true } : {},
    status: { conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
  };
}

test('nodes the operator took out of service and nodes not Ready count; an admin cordon alone does not', (t) => {
  t.truthy(unavailableReason(node('a', { phase: 'Draining', cordoned: true })));
  t.truthy(unavailableReason(node('b', { ready: false })));
  t.is(unavailableReason(node('c', { cordoned: true })), undefined);
  t.is(unavailableReason(node('d')), undefined);
});

test('maxUnavailable 1: one grant at a time, released grants free the slot', (t) => {
  const nodes = [node('a'), node('b'), node('c')];
  const budget = new DisruptionBudget({ kind: 'count', count: 1 }, () => nodes);
  t.true(budget.tryAcquire('a').granted);
  const refused = budget.tryAcquire('b');
  t.false(refused.granted);
  if (!refused.granted) {
    t.is(refused.max, 1);
    t.deepEqual(refused.unavailable, ['a']);
  }
  budget.release('a');
  t.true(budget.tryAcquire('b').granted);
});

test('a node that is already unavailable is always granted (resuming adds nothing)', (t) => {
  const nodes = [node('a', { phase: 'Configuring', cordoned: true }), node('b', { ready: false }), node('c')];
  const budget = new DisruptionBudget({ kind: 'count', count: 1 }, () => nodes);
  t.true(budget.tryAcquire('a').granted);
  t.false(budget.tryAcquire('c').granted, 'two are already out');
});

test('an unavailable node of any source counts: a NotReady node uses the only slot', (t) => {
  const nodes = [node('machine-1', { ready: false }), node('byoh-1')];
  const budget = new DisruptionBudget({ kind: 'count', count: 1 }, () => nodes);
  t.false(budget.tryAcquire('byoh-1').granted);
});

test('maxUnavailable 2 gives two grants and refuses the third; 50% of four is two', (t) => {
  const nodes = ['a', 'b', 'c', 'd'].map((n) => node(n));
  for (const max of [{ kind: 'count', count: 2 } as const, { kind: 'percent', percent: 50 } as const]) {
    const budget = new DisruptionBudget(max, () => nodes);
    t.true(budget.tryAcquire('a').granted);
    t.true(budget.tryAcquire('b').granted);
    t.false(budget.tryAcquire('c').granted);
    t.deepEqual(budget.holding(), ['a', 'b']);
  }
});

test('disrupt (service restarts on Ready nodes) shares the budget: a restart waits while an upgrade holds the slot', async (t) => {
  const nodes = [node('a'), node('b')];
  const budget = new DisruptionBudget({ kind: 'count', count: 1 }, () => nodes);
  t.true(budget.tryAcquire('a').granted, 'an upgrade holds a');
  const order: string[] = [];
  const restart = budget.disrupt('b', () => Promise.resolve(order.push('restart b')), 5);
  await new Promise((r) => setTimeout(r, 30));
  t.deepEqual(order, [], 'b waits for the slot');
  order.push('upgrade a done');
  budget.release('a');
  await restart;
  t.deepEqual(order, ['upgrade a done', 'restart b']);
  t.deepEqual(budget.holding(), [], 'the restart gave its grant back');
  await budget.disrupt('a', () => Promise.reject(new Error('boom')), 5).catch(() => undefined);
  t.deepEqual(budget.holding(), [], 'a failed restart gives its grant back too');
});

test('a released grant tells the listeners which nodes were refused meanwhile, once', (t) => {
  const nodes = [node('a'), node('b'), node('c')];
  const budget = new DisruptionBudget({ kind: 'count', count: 1 }, () => nodes);
  const heard: (readonly string[])[] = [];
  budget.onFreed((waiting) => heard.push(waiting));
  t.true(budget.tryAcquire('a').granted);
  budget.release('a');
  t.deepEqual(heard, [], 'nobody waited');
  t.true(budget.tryAcquire('a').granted);
  t.false(budget.tryAcquire('c').granted);
  t.false(budget.tryAcquire('b').granted);
  budget.release('a');
  t.deepEqual(heard, [['b', 'c']]);
  budget.release('a');
  t.is(heard.length, 1, 'a grant not held frees nothing');
  t.true(budget.tryAcquire('b').granted);
  t.false(budget.tryAcquire('c').granted);
  budget.release('b');
  t.deepEqual(heard[1], ['c']);
});

test('a node seen back in service hands its slot on to the nodes refused since, as a released grant does', (t) => {
  // The grant of `a` was released while the cache still showed `a` cordoned for its upgrade: `b` asked
  // again then and was refused; the cache's next state of `a` is what frees the slot.
  const out = node('a', { phase: 'Upgrading', cordoned: true });
  const back = node('a');
  const nodes = [out, node('b'), node('c')];
  const budget = new DisruptionBudget({ kind: 'count', count: 1 }, () => nodes);
  const heard: (readonly string[])[] = [];
  budget.onFreed((waiting) => heard.push(waiting));
  budget.nodeChanged(out, back);
  t.deepEqual(heard, [], 'nobody waited');
  t.false(budget.tryAcquire('b').granted, 'a still counts in the cache');
  budget.nodeChanged(node('c'), node('c', { cordoned: true }));
  budget.nodeChanged(out, node('a', { phase: 'Upgrading', cordoned: true, ready: false }));
  t.deepEqual(heard, [], 'a change that frees nothing hands nothing on');
  nodes[0] = back;
  budget.nodeChanged(out, back);
  t.deepEqual(heard, [['b']]);
  t.true(budget.tryAcquire('b').granted);
  t.false(budget.tryAcquire('c').granted);
  budget.nodeChanged(node('x', { ready: false }), undefined);
  t.deepEqual(heard[1], ['c'], 'an unavailable node deleted frees its slot too');
  budget.nodeChanged(node('y'), undefined);
  t.is(heard.length, 2, 'an available node deleted frees nothing');
});
