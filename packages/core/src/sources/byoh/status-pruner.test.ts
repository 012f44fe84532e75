import test from 'ava';
import type { CoreV1Api, V1ConfigMap } from '@kubernetes/client-node';
import { testNode } from '../../lifecycle/lifecycle.test-helper.js';
import {
  ConfigMapStatusStore,
  MemoryStatusStore,
  type InstanceStatus,
} from '../../lifecycle/instance-status.js';
import { pruneInstanceStatuses } from './status-pruner.js';

const V = 'username=Administrator';
const at = (address: string, phase: InstanceStatus['phase']): InstanceStatus => ({
  address,
  phase,
  since: '2026-01-01T00:00:00.000Z',
  phaseSeconds: {},
});

test('statuses of addresses that are no longer instances are deleted', async (t) => {
  const store = new MemoryStatusStore();
  for (const s of [
    at('10.0.0.1', 'Ready'), // an entry
    at('10.0.0.2', 'Failed'), // entry removed, never joined
    at('win.example', 'Failed'), // DNS entry still listed
    at('10.0.0.3', 'Ready'), // the IPv4 of the DNS entry
    at('10.0.0.5', 'Removing'), // a node being removed
    at('10.0.0.6', 'Removing'), // removal in flight, node already gone
    at('bad-entry', 'Failed'), // an invalid entry that was deleted
  ])
    await store.set(s);
  const node = testNode('win-e', '10.0.0.5');
  node.metadata!.labels = { 'windowsmachineconfig.openshift.io/byoh': 'true' };
  await pruneInstanceStatuses(store, {
    instances: { '10.0.0.1': 'username=Administrator', 'win.example': 'username=Administrator' },
    nodes: [node],
    resolve: (name) => Promise.resolve(name === 'win.example' ? ['10.0.0.3'] : []),
  });
  t.deepEqual([...store.statuses.keys()].sort(), [
    '10.0.0.1',
    '10.0.0.3',
    '10.0.0.5',
    '10.0.0.6',
    'win.example',
  ]);
});

/** A CoreV1Api holding one ConfigMap, with the calls the status store makes. */
function fakeApi(data: Record<string, string>): { api: CoreV1Api; cm: () => V1ConfigMap } {
  let cm: V1ConfigMap = { metadata: { name: 'windows-instances-status' }, data };
  const api = {
    readNamespacedConfigMap: () => Promise.resolve(structuredClone(cm)),
    replaceNamespacedConfigMap: (r: { body: V1ConfigMap }) => {
      cm = structuredClone(r.body);
      return Promise.resolve(cm);
    },
    // A JSON merge patch of data keys (null deletes one), as the API server applies it.
    patchNamespacedConfigMap: (r: { body: { data: Record<string, string | null> } }) => {
      const data = { ...cm.data };
      for (const [k, v] of Object.entries(r.body.data)) {
        if (v === null) delete data[k];
        else data[k] = v;
      }
      cm = { ...cm, data };
      return Promise.resolve(structuredClone(cm));
    },
  } as unknown as CoreV1Api;
  return { api, cm: () => cm };
}

test('the ConfigMap store also prunes entries written by an earlier run', async (t) => {
  const { api, cm } = fakeApi({
    '10.0.0.9': JSON.stringify(at('10.0.0.9', 'Failed')),
    '10.0.0.1': JSON.stringify(at('10.0.0.1', 'Ready')),
    junk: 'not json',
  });
  const store = new ConfigMapStatusStore(api, 'ns');
  await store.retain((address) => address === '10.0.0.1');
  t.deepEqual(Object.keys(cm().data ?? {}), ['10.0.0.1']);
});

test('lastError is redacted, one line, without control characters, and bounded', async (t) => {
  const { api, cm } = fakeApi({});
  const store = new ConfigMapStatusStore(api, 'ns', (text) => text.replaceAll('s3cret-token', '[REDACTED]'));
  await store.set({
    ...at('10.0.0.1', 'Failed'),
    lastError: `bad\u001b[2J\u001b[31m thing\r\nwith s3cret-token\u0007${'x'.repeat(3000)}`,
  });
  const stored = JSON.parse(cm().data?.['10.0.0.1'] ?? '{}') as InstanceStatus;
  t.true(stored.lastError?.startsWith('bad thing with [REDACTED]xxx'));
  t.false(/\p{Cc}/u.test(stored.lastError ?? ''));
  t.is(stored.lastError?.length, 1024);
  t.is(store.get('10.0.0.1')?.lastError, stored.lastError);
});

test('a listed source prunes only its own statuses: another source’s (windows-instances or an embedder’s) stay', async (t) => {
  const store = new MemoryStatusStore();
  await store.set({ ...at('10.0.0.1', 'Ready'), source: 'byoh' });
  await store.set(at('10.0.0.2', 'Failed')); // written before sources were recorded: windows-instances'
  await store.set({ ...at('10.0.0.3', 'Ready'), source: 'windows-hosts' });
  await store.set({ ...at('10.0.0.4', 'Failed'), source: 'windows-hosts' });
  const scope = { nodes: [], resolve: () => Promise.resolve([]) };
  await pruneInstanceStatuses(store, { ...scope, instances: { '10.0.0.3': V }, source: 'windows-hosts' });
  t.deepEqual([...store.statuses.keys()].sort(), ['10.0.0.1', '10.0.0.2', '10.0.0.3']);
  await pruneInstanceStatuses(store, { ...scope, instances: { '10.0.0.1': V } });
  t.deepEqual([...store.statuses.keys()].sort(), ['10.0.0.1', '10.0.0.3']);
});
