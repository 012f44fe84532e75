import test from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import { isUnavailable, UnavailabilityTracker } from './node-unavailability.js';

const node = (name: string, ready: boolean, unschedulable = false): V1Node => ({
  metadata: { name },
  spec: { unschedulable },
  status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
});

test('a node is unavailable while cordoned or not Ready', (t) => {
  t.false(isUnavailable(node('a', true)));
  t.true(isUnavailable(node('a', true, true)));
  t.true(isUnavailable(node('a', false)));
  t.true(isUnavailable({ metadata: { name: 'a' } }), 'no Ready condition yet');
});

test('the tracker keeps the most nodes unavailable at once, per node, through updates and deletions', (t) => {
  const u = new UnavailabilityTracker();
  u.observe('ADDED', node('a', true));
  u.observe('ADDED', node('b', true));
  u.observe('MODIFIED', node('a', true, true));
  u.observe('MODIFIED', node('a', false, true)); // the same node twice counts once
  u.observe('MODIFIED', node('b', true, true));
  t.is(u.maxSeen, 2);
  t.deepEqual(u.maxSeenNodes, ['a', 'b']);
  u.observe('MODIFIED', node('a', true));
  u.observe('DELETED', node('b', true, true));
  t.is(u.now, 0);
  t.is(u.maxSeen, 2);
  u.resetPeak();
  t.is(u.maxSeen, 0);
  u.observe('MODIFIED', node('c', false));
  t.is(u.maxSeen, 1);
  t.deepEqual(u.maxSeenNodes, ['c'], 'the peak after the reset names its own nodes');
});

test('the tracker adds up the node-seconds unavailable and each spell, from the reset on', (t) => {
  let now = 0;
  const u = new UnavailabilityTracker(() => now);
  u.observe('ADDED', node('a', false)); // joining: before the reset
  now = 5000;
  u.observe('MODIFIED', node('a', true));
  u.resetPeak();
  t.is(u.unavailableNodeSeconds(), 0);
  t.deepEqual(u.finishedSpells(), []);
  u.observe('MODIFIED', node('a', true, true));
  now = 6000;
  u.observe('MODIFIED', node('b', true, true));
  now = 8000;
  u.observe('MODIFIED', node('a', true));
  now = 9000;
  t.is(u.unavailableNodeSeconds(), 1 + 2 * 2 + 1);
  t.deepEqual(u.finishedSpells(), [3]);
});
