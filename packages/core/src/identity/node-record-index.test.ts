import test from 'ava';
import type { CoreV1Api, V1ConfigMap } from '@kubernetes/client-node';
import { nodeRecordConfigMap, type NodeRecord } from './node-record.js';
import { ConfigMapNodeRecords, type RecordCache } from './node-record-store.js';

const record = (i: number): NodeRecord => ({
  source: 'windows-instances',
  instance: `10.0.${Math.floor(i / 250)}.${i % 250}`,
  address: `10.0.${Math.floor(i / 250)}.${i % 250}`,
  nodeName: `win-${i}`,
  username: 'Administrator',
  appliedTags: [],
  recordedAt: '2026-01-01T00:00:00Z',
});

/** An informer-like cache that counts its lists, with a revision the test moves on each change. */
function countingCache(n: number): RecordCache & { lists: number; items: V1ConfigMap[]; revision: number } {
  const items = Array.from({ length: n }, (_, i) => ({
    ...nodeRecordConfigMap('wmco', record(i)),
    metadata: { ...nodeRecordConfigMap('wmco', record(i)).metadata, resourceVersion: String(i + 1) },
  }));
  const cache = {
    lists: 0,
    items,
    revision: 1,
    list: (): readonly V1ConfigMap[] => {
      cache.lists++;
      return cache.items;
    },
  };
  return cache;
}

const core = {
  createNamespacedConfigMap: ({ body }: { body: V1ConfigMap }) =>
    Promise.resolve({ ...body, metadata: { ...body.metadata, resourceVersion: '9999' } }),
} as unknown as CoreV1Api;

test('lookups read the cache once per change of it, by name and by node, at 1,000 records', async (t) => {
  const cache = countingCache(1000);
  const records = new ConfigMapNodeRecords(core, 'wmco', cache);
  for (let i = 0; i < 1000; i++) {
    t.is(records.forNode(`win-${i}`)?.address, record(i).address);
    t.is(records.get('windows-instances', record(i).instance)?.nodeName, `win-${i}`);
  }
  t.is(records.all().length, 1000);
  t.is(cache.lists, 1, 'one read of the cache for 2,001 lookups');

  // The informer saw a record go: the next lookup reads the cache again.
  cache.items = cache.items.slice(1);
  cache.revision++;
  t.is(records.forNode('win-0'), undefined);
  t.is(records.all().length, 999);
  t.is(cache.lists, 2);

  // A write of this store is seen at once, before the cache shows it.
  await records.put({ ...record(5000), nodeName: 'win-new' });
  t.is(records.forNode('win-new')?.instance, record(5000).instance);
  t.is(cache.lists, 3);
});

test('a cache without a revision is read on every lookup (tests and fakes keep working)', (t) => {
  const cache = countingCache(3);
  const plain: RecordCache = { list: () => cache.list() };
  const records = new ConfigMapNodeRecords(core, 'wmco', plain);
  records.forNode('win-1');
  records.forNode('win-2');
  t.is(cache.lists, 2);
});
