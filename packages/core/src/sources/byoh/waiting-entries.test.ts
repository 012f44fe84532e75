import test from 'ava';
import type { NodeRecord, RecordSource } from '../../identity/node-record.js';
import { waitingEntries } from './waiting-entries.js';

const record = (nodeName: string, source: RecordSource, instance: string): NodeRecord =>
  ({ source, instance, address: instance, nodeName, username: 'Administrator' }) as NodeRecord;
const records = [
  record('win-a', 'windows-instances', '10.0.0.5'),
  record('win-b', 'windows-instances', 'win-b.example.com'),
  record('winms-1', 'machine', 'openshift-machine-api/winms-1'),
];
const store = { forNode: (name: string) => records.find((r) => r.nodeName === name) };

test('the entries of the nodes that waited, by their records; another source’s nodes are not this one’s', (t) => {
  t.deepEqual(waitingEntries(['win-b', 'winms-1', 'win-a'], store, 'windows-instances'), {
    entries: ['win-b.example.com', '10.0.0.5'],
    unknown: false,
  });
  t.deepEqual(waitingEntries(['winms-1'], store, 'machine'), {
    entries: ['openshift-machine-api/winms-1'],
    unknown: false,
  });
});

test('a name with no record says so (the caller then looks at every entry)', (t) => {
  t.deepEqual(waitingEntries(['win-a', 'old-node'], store, 'windows-instances'), {
    entries: ['10.0.0.5'],
    unknown: true,
  });
});
