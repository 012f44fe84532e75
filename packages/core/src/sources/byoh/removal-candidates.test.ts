import test from 'ava';
import { MemoryNodeRecords } from '../../identity/memory-node-records.js';
import type { NodeRecord, RecordSource } from '../../identity/node-record.js';
import { removalCandidates } from './recorded-removals.js';

const record = (source: RecordSource, instance: string, nodeName: string): NodeRecord => ({
  source,
  instance,
  address: instance,
  nodeName,
  username: 'Administrator',
  appliedTags: [],
  recordedAt: '2026-01-01T00:00:00Z',
});

test('a source removes the nodes of its own records whose hosts left its list, never another source’s', (t) => {
  const records = new MemoryNodeRecords([
    record('windows-instances', '10.0.0.1', 'win-o'),
    record('source/windows-hosts', '10.0.0.2', 'win-e'),
    record('machine', 'openshift-machine-api/win-m', 'win-m'),
  ]);
  // Neither list holds its host any more: each source takes only its own.
  t.deepEqual(removalCandidates([], records, []), ['win-o']);
  t.deepEqual(removalCandidates([], records, [], 'source/windows-hosts'), ['win-e']);
  t.deepEqual(removalCandidates([], records, ['10.0.0.2'], 'source/windows-hosts'), []);
});
