import test from 'ava';
import type { CoreV1Api, V1ConfigMap } from '@kubernetes/client-node';
import { FakeClock } from '../kube/fake-clock.js';
import { silentLogger } from '../kube/logger.js';
import type { WatchPort } from '../kube/watch-port.js';
import { InformedHostKeyStore } from './kube-host-key-store.js';

const flush = (): Promise<unknown> => new Promise((r) => setImmediate(r));
const keys = (data: Record<string, string>, rv = '1'): V1ConfigMap => ({
  metadata: { name: 'windows-ssh-host-keys-pending', namespace: 'wmco', resourceVersion: rv },
  data,
});

function setup(): { store: InformedHostKeyStore; reads: () => number; cm: { value: V1ConfigMap } } {
  const cm = { value: keys({ '10.0.0.5': 'ssh-ed25519 AAAA' }) };
  let reads = 0;
  const core = {
    listNamespacedConfigMap: () => Promise.resolve({ items: [cm.value], metadata: { resourceVersion: '1' } }),
    readNamespacedConfigMap: () => {
      reads++;
      return Promise.resolve(cm.value);
    },
  } as unknown as CoreV1Api;
  const watch: WatchPort = () => Promise.resolve({ abort: () => undefined });
  const store = new InformedHostKeyStore({
    core,
    watch,
    clock: new FakeClock(),
    logger: silentLogger,
    namespace: 'wmco',
  });
  return { store, reads: () => reads, cm };
}

test('a pin the cache holds is answered from it; an address it does not know is read from the API', async (t) => {
  const { store, reads, cm } = setup();
  t.deepEqual(await store.get('10.0.0.5'), { type: 'ssh-ed25519', base64: 'AAAA' });
  t.is(reads(), 1, 'before the watch has listed: read from the API');
  await flush();
  for (let i = 0; i < 3; i++) await store.get('10.0.0.5');
  t.is(reads(), 1, 'then from the cache');
  // Pinned a moment ago by another join, not in the cache yet: never answered "not pinned" from it.
  cm.value = keys({ '10.0.0.5': 'ssh-ed25519 AAAA', '10.0.0.6': 'ssh-ed25519 BBBB' }, '2');
  t.deepEqual(await store.get('10.0.0.6'), { type: 'ssh-ed25519', base64: 'BBBB' });
  t.is(reads(), 2);
  store.stop();
});

function writable(): {
  store: InformedHostKeyStore;
  cm: { value: V1ConfigMap };
  writes: () => number;
} {
  const cm = { value: keys({ '10.0.0.5': 'ssh-ed25519 AAAA', '10.0.0.5:2222': 'ssh-ed25519 AAAA' }) };
  let writes = 0;
  const core = {
    listNamespacedConfigMap: () => Promise.resolve({ items: [cm.value], metadata: { resourceVersion: '1' } }),
    readNamespacedConfigMap: () => Promise.resolve(cm.value),
    replaceNamespacedConfigMap: ({ body }: { body: V1ConfigMap }) => {
      writes++;
      cm.value = { ...body, metadata: { ...body.metadata, resourceVersion: String(writes + 1) } };
      return Promise.resolve(cm.value);
    },
    // A pin is a merge patch of its key.
    patchNamespacedConfigMap: ({ body }: { body: { data: Record<string, string | null> } }) => {
      writes++;
      const metadata = { ...cm.value.metadata, resourceVersion: String(writes + 1) };
      const data = { ...cm.value.data };
      for (const [k, v] of Object.entries(body.data))
        if (v === null) delete data[k];
        else data[k] = v;
      cm.value = { ...cm.value, metadata, data };
      return Promise.resolve(cm.value);
    },
  } as unknown as CoreV1Api;
  // The watch never delivers: the cache keeps the ConfigMap as first listed.
  const watch: WatchPort = () => Promise.resolve({ abort: () => undefined });
  const store = new InformedHostKeyStore({
    core,
    watch,
    clock: new FakeClock(),
    logger: silentLogger,
    namespace: 'wmco',
  });
  return { store, cm, writes: () => writes };
}

test('a pin forgotten here is not answered from a cache that still holds it', async (t) => {
  const { store, cm, writes } = writable();
  await store.get('10.0.0.5');
  await flush();
  t.deepEqual(await store.get('10.0.0.5'), { type: 'ssh-ed25519', base64: 'AAAA' }, 'cached');
  t.deepEqual([...(await store.forgetHosts(['10.0.0.5']))].sort(), ['10.0.0.5', '10.0.0.5:2222']);
  t.deepEqual(cm.value.data, {});
  t.is(await store.get('10.0.0.5'), undefined, 'the stale cache is not believed');
  t.is(await store.get('10.0.0.5:2222'), undefined);
  // A new machine at the address is pinned: its key is the answer, not the forgotten one.
  await store.pin('10.0.0.5', { type: 'ssh-ed25519', base64: 'BBBB' });
  t.deepEqual(await store.get('10.0.0.5'), { type: 'ssh-ed25519', base64: 'BBBB' });
  const before = writes();
  t.deepEqual(await store.forgetHosts(['10.9.9.9']), []);
  t.is(writes(), before, 'nothing pinned for the host: no write');
  store.stop();
});
