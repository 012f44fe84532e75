import test from 'ava';
import type { JsonObject } from '../apiserver/json.js';
import { machinesToDelete } from './delete-policy.js';

function machine(name: string, created: string, extra: JsonObject = {}): JsonObject {
  return {
    metadata: { name, creationTimestamp: created, ...(extra['metadata'] as JsonObject | undefined) },
    status: { nodeRef: { name }, ...(extra['status'] as JsonObject | undefined) },
  };
}
const names = (ms: JsonObject[]): string[] => ms.map((m) => (m['metadata'] as { name: string }).name);

const a = machine('a', '2026-01-01T00:00:00Z');
const b = machine('b', '2026-01-02T00:00:00Z');
const c = machine('c', '2026-01-03T00:00:00Z');

test('Newest deletes the youngest, Oldest the oldest', (t) => {
  t.deepEqual(names(machinesToDelete([a, b, c], 2, 'Newest')), ['c', 'b']);
  t.deepEqual(names(machinesToDelete([a, b, c], 1, 'Oldest')), ['a']);
});

test('marked and failed Machines go first whatever the policy; unlinked ones first under Random', (t) => {
  const marked = machine('m', '2026-01-01T00:00:00Z', {
    metadata: { annotations: { 'machine.openshift.io/delete-machine': 'true' } },
  });
  const failed = machine('f', '2026-01-01T00:00:00Z', { status: { errorReason: 'InvalidConfiguration' } });
  const unlinked: JsonObject = { metadata: { name: 'u', creationTimestamp: '2026-01-01T00:00:00Z' } };
  t.deepEqual(names(machinesToDelete([c, marked], 1, 'Newest')), ['m']);
  t.deepEqual(names(machinesToDelete([c, failed], 1, 'Newest')), ['f']);
  t.deepEqual(names(machinesToDelete([c, unlinked], 1, 'Random')), ['u']);
  t.deepEqual(names(machinesToDelete([c, unlinked], 1, 'Newest')), ['c'], 'Newest goes by age alone');
  const old = machine('o', '2026-01-01T00:00:00Z', {
    metadata: { annotations: { 'cluster.k8s.io/delete-machine': 'yes' } },
  });
  t.deepEqual(names(machinesToDelete([c, old], 1, 'Random', () => 0)), ['o']);
});

test('Random picks by the random source and never more than asked', (t) => {
  const order = [0.9, 0.1, 0.5];
  let i = 0;
  t.deepEqual(names(machinesToDelete([a, b, c], 2, 'Random', () => order[i++] ?? 0)), ['b', 'c']);
  t.deepEqual(machinesToDelete([a], 0, 'Random'), []);
});
