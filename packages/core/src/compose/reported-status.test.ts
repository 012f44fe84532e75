import test from 'ava';
import { silentLogger } from '../kube/logger.js';
import { enterPhase, MemoryStatusStore, type InstanceStatus } from '../lifecycle/instance-status.js';
import type { InstanceList, InstanceReport } from '../sources/byoh/instance-list.js';
import { reportedStatus } from './reported-status.js';

function list(reports: [string, InstanceReport | undefined][], fail = false): InstanceList {
  return {
    start: () => Promise.resolve(),
    stop: () => undefined,
    synced: true,
    instances: () => ({}),
    report: (address, status) => {
      reports.push([address, status]);
      return fail ? Promise.reject(new Error('status write refused')) : Promise.resolve();
    },
  };
}

const at = (
  address: string,
  phase: InstanceStatus['phase'],
  extra: Partial<InstanceStatus> = {},
): InstanceStatus => enterPhase(undefined, { address, phase, now: new Date(), extra });

test('each status written or removed reaches the list: phase, node and last error', async (t) => {
  const reports: [string, InstanceReport | undefined][] = [];
  const inner = new MemoryStatusStore();
  const store = reportedStatus(inner, list(reports), silentLogger);
  await store.set(at('10.0.0.5', 'Configuring', { source: 'byoh' }));
  await store.set(at('10.0.0.5', 'Ready', { source: 'byoh', node: 'win-a' }));
  await store.set(at('10.0.0.6', 'Failed', { lastError: 'no route to host' }));
  await store.remove('10.0.0.5');
  await store.retain((address) => address !== '10.0.0.6');
  t.deepEqual(reports, [
    ['10.0.0.5', { address: '10.0.0.5', phase: 'Configuring' }],
    ['10.0.0.5', { address: '10.0.0.5', phase: 'Ready', node: 'win-a' }],
    ['10.0.0.6', { address: '10.0.0.6', phase: 'Failed', lastError: 'no route to host' }],
    ['10.0.0.5', undefined],
    ['10.0.0.6', undefined],
  ]);
  t.deepEqual(inner.get('10.0.0.6'), undefined, 'the lifecycle’s own store is kept as before');
});

test('Machine statuses are not the list’s, and a failed report never fails the status write', async (t) => {
  const reports: [string, InstanceReport | undefined][] = [];
  const inner = new MemoryStatusStore();
  const store = reportedStatus(inner, list(reports, true), silentLogger);
  await store.set(at('machine.win-1', 'Ready', { source: 'machine', machine: 'win-1' }));
  await store.remove('machine.win-1');
  t.deepEqual(reports, []);
  await store.set(at('10.0.0.7', 'Ready', { node: 'win-c' }));
  t.is(inner.get('10.0.0.7')?.phase, 'Ready');
  t.is(reports.length, 1);
});
