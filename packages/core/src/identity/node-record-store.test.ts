import test from 'ava';
import type { CoreV1Api, V1ConfigMap } from '@kubernetes/client-node';
import { decodeNodeRecord, nodeRecordConfigMap, nodeRecordName, type NodeRecord } from './node-record.js';
import { ConfigMapNodeRecords } from './node-record-store.js';

const RECORD: NodeRecord = {
  source: 'windows-instances',
  instance: 'win-a.example',
  address: '10.0.0.5',
  dnsName: 'win-a.example',
  nodeName: 'win-a',
  username: 'Administrator',
  hostKey: { type: 'ssh-ed25519', base64: 'AAAA' },
  cloudInstanceId: 'i-0123',
  appliedTags: [{ key: 'kubernetes.io/cluster/x', value: 'owned' }],
  recordedAt: '2026-01-01T00:00:00Z',
};

/** A ConfigMap API in memory, with resourceVersions, and a cache the test moves forward by hand. */
function fakeApi(): { core: CoreV1Api; stored: Map<string, V1ConfigMap>; cache: V1ConfigMap[] } {
  const stored = new Map<string, V1ConfigMap>();
  let rv = 0;
  const keep = (cm: V1ConfigMap): V1ConfigMap => {
    const out = { ...cm, metadata: { ...cm.metadata, resourceVersion: String(++rv) } };
    stored.set(cm.metadata?.name ?? '', out);
    return out;
  };
  const core = {
    createNamespacedConfigMap: ({ body }: { body: V1ConfigMap }) =>
      stored.has(body.metadata?.name ?? '')
        ? Promise.reject(Object.assign(new Error('exists'), { code: 409 }))
        : Promise.resolve(keep(body)),
    replaceNamespacedConfigMap: ({ body }: { body: V1ConfigMap }) => Promise.resolve(keep(body)),
    deleteNamespacedConfigMap: ({ name }: { name: string }) =>
      stored.delete(name)
        ? Promise.resolve({})
        : Promise.reject(Object.assign(new Error('gone'), { code: 404 })),
  } as unknown as CoreV1Api;
  return { core, stored, cache: [] };
}

test('a record survives its ConfigMap form; a name from the instance key, whatever the key', (t) => {
  const cm = nodeRecordConfigMap('wmco', RECORD);
  t.is(cm.metadata?.name, nodeRecordName('windows-instances', 'win-a.example'));
  t.regex(cm.metadata?.name ?? '', /^windows-node-record-[0-9a-f]{24}$/);
  t.is(cm.metadata?.labels?.['windowsmachineconfig.openshift.io/node-record'], 'true');
  t.deepEqual(decodeNodeRecord(cm), RECORD);
  t.not(nodeRecordName('machine', 'win-a.example'), cm.metadata?.name, 'the source is part of the name');
});

test('a record copied under another name, or malformed, is no record', (t) => {
  const cm = nodeRecordConfigMap('wmco', RECORD);
  const other = {
    ...cm,
    metadata: { ...cm.metadata, name: nodeRecordName('windows-instances', '10.0.0.9') },
  };
  t.is(decodeNodeRecord(other), undefined);
  t.is(decodeNodeRecord({ ...cm, data: { 'record.json': '{' } }), undefined);
  const noUser = JSON.stringify({ ...RECORD, username: '' });
  t.is(decodeNodeRecord({ ...cm, data: { 'record.json': noUser } }), undefined);
  const badTags = JSON.stringify({ ...RECORD, appliedTags: [{ key: 3 }] });
  t.is(decodeNodeRecord({ ...cm, data: { 'record.json': badTags } }), undefined);
});

test('writes are read back at once, before the cache shows them, and replaced on a second put', async (t) => {
  const api = fakeApi();
  const store = new ConfigMapNodeRecords(api.core, 'wmco', { list: () => api.cache });
  await store.put(RECORD);
  t.deepEqual(store.get('windows-instances', 'win-a.example'), RECORD);
  t.deepEqual(store.forNode('win-a'), RECORD);
  await store.put({ ...RECORD, appliedTags: [] });
  t.deepEqual(store.forNode('win-a')?.appliedTags, []);
  // The cache catches up: its object is used from then on.
  api.cache.push(...api.stored.values());
  t.is(store.all().length, 1);
  await store.remove('windows-instances', 'win-a.example');
  t.is(store.forNode('win-a'), undefined, 'a removal is seen at once though the cache still holds it');
  t.is(api.stored.size, 0);
  await t.notThrowsAsync(store.remove('windows-instances', 'win-a.example'), 'removing twice is fine');
});
