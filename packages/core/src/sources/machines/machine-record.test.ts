import test from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import { MemoryNodeRecords } from '../../identity/memory-node-records.js';
import { RecordMismatchReporter } from '../../lifecycle/record-mismatch-reporter.js';
import { MemoryEventRecorder } from '../../kube/event-recorder.js';
import { silentLogger } from '../../kube/logger.js';
import { machineNode } from './machine-record.js';
import type { WindowsMachine } from './machine-object.js';

const M: WindowsMachine = {
  name: 'win-0',
  namespace: 'openshift-machine-api',
  uid: 'u0',
  ipv4: '10.0.1.5',
  phase: 'Provisioned',
  nodeRef: 'win-0',
  deleting: false,
  ignored: false,
  windows: true,
  machineSet: undefined,
};

function node(name: string, machine: string | undefined, ip: string): V1Node {
  return {
    metadata: { name, annotations: machine ? { 'windowsmachineconfig.openshift.io/machine': machine } : {} },
    status: { addresses: [{ type: 'InternalIP', address: ip }] },
  };
}

function deps(records = new MemoryNodeRecords()) {
  const events = new MemoryEventRecorder();
  const status = {
    get: () => undefined,
    set: () => Promise.resolve(),
    remove: () => Promise.resolve(),
    retain: () => Promise.resolve(),
  };
  const reporter = new RecordMismatchReporter({ events, logger: silentLogger, status });
  return { records, events, reporter, sshUser: 'Administrator' };
}

test('a claimed Machine node joined before records gets its record when its address is the Machine’s', async (t) => {
  const d = deps();
  const own = node('win-0', 'openshift-machine-api/win-0', '10.0.1.5');
  const found = await machineNode(d, [own], M, own);
  t.deepEqual(found, { kind: 'node', node: own });
  t.like(d.records.get('machine', 'openshift-machine-api/win-0'), {
    nodeName: 'win-0',
    address: '10.0.1.5',
    migrated: true,
  });
});

test('no record, and nothing done, for a Machine node at another address or with a second claimant', async (t) => {
  const elsewhere = deps();
  const moved = node('win-0', 'openshift-machine-api/win-0', '10.0.1.9');
  t.deepEqual(await machineNode(elsewhere, [moved], M, moved), { kind: 'refused' });
  t.regex(elsewhere.events.events[0]?.message ?? '', /InternalIP 10\.0\.1\.9 is not 10\.0\.1\.5/);
  const twice = deps();
  const own = node('win-0', 'openshift-machine-api/win-0', '10.0.1.5');
  const hostile = node('win-x', 'openshift-machine-api/win-0', '10.0.1.7');
  t.deepEqual(await machineNode(twice, [own, hostile], M, own), { kind: 'refused' });
  t.regex(twice.events.events[0]?.message ?? '', /win-x claim the same Machine/);
  t.deepEqual(twice.records.all(), []);
});

test('with a record, the recorded Node is the Machine’s; one that contradicts it is reported and refused', async (t) => {
  const record = {
    source: 'machine' as const,
    instance: 'openshift-machine-api/win-0',
    address: '10.0.1.5',
    nodeName: 'win-0',
    username: 'Administrator',
    appliedTags: [],
    recordedAt: '2026-01-01T00:00:00Z',
  };
  const d = deps(new MemoryNodeRecords([record]));
  const own = node('win-0', 'openshift-machine-api/win-0', '10.0.1.5');
  // Another node claims the Machine first in the list: the record, not the annotation, decides.
  const hostile = node('win-x', 'openshift-machine-api/win-0', '10.0.1.5');
  t.deepEqual(await machineNode(d, [hostile, own], M, hostile), { kind: 'node', node: own });
  const lying = node('win-0', 'openshift-machine-api/win-0', '10.0.1.7');
  t.deepEqual(await machineNode(d, [lying], M, lying), { kind: 'refused' });
  t.is(d.events.events[0]?.reason, 'NodeRecordMismatch');
});
