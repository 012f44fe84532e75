import test from 'ava';
import { oneConfigMap, type OneConfigMap } from '../kube/one-configmap.test-helper.js';
import { ConfigMapStatusStore } from './configmap-status-store.js';
import type { InstanceStatus } from './instance-status.js';

const at = (address: string): InstanceStatus => ({
  address,
  phase: 'Ready',
  since: '2026-01-01T00:00:00.000Z',
  phaseSeconds: {},
});

/** A CoreV1Api holding (or not) the status ConfigMap, logging each call the store makes. */
const fakeApi = (exists: boolean): OneConfigMap =>
  oneConfigMap(exists ? { metadata: { name: 'windows-instances-status' }, data: {} } : undefined, {
    patchKeys: true,
  });

test('a status is written as a patch of its own key: the ConfigMap is neither read nor replaced', async (t) => {
  const { api, calls, data } = fakeApi(true);
  const store = new ConfigMapStatusStore(api, 'ns');
  await store.set(at('10.0.0.1'));
  await store.set(at('10.0.0.2'));
  await store.remove('10.0.0.1');
  t.deepEqual(calls, ['patch 10.0.0.1', 'patch 10.0.0.2', 'patch 10.0.0.1']);
  t.deepEqual(Object.keys(data()), ['10.0.0.2']);
  t.is((JSON.parse(data()['10.0.0.2']!) as InstanceStatus).phase, 'Ready');
});

test('the first status creates the ConfigMap; removing from a missing one creates nothing', async (t) => {
  const { api, calls, data } = fakeApi(false);
  const store = new ConfigMapStatusStore(api, 'ns');
  await store.remove('10.0.0.9');
  t.deepEqual(calls, ['patch 10.0.0.9']);
  await store.set(at('10.0.0.1'));
  t.deepEqual(calls.slice(1), ['patch 10.0.0.1', 'create']);
  t.deepEqual(Object.keys(data()), ['10.0.0.1']);
});

test('statuses set while a patch is under way go together in the next one, each key at its latest value', async (t) => {
  const { api, calls, data } = fakeApi(true);
  const patch = api.patchNamespacedConfigMap.bind(api);
  let release: (() => void) | undefined;
  const held = new Promise<void>((r) => (release = r));
  let first = true;
  api.patchNamespacedConfigMap = async (...args: Parameters<typeof patch>) => {
    if (first) {
      first = false;
      await held;
    }
    return patch(...args);
  };
  const store = new ConfigMapStatusStore(api, 'ns');
  const writes = [store.set(at('10.0.0.1'))];
  await new Promise((r) => setImmediate(r)); // the first patch is under way
  writes.push(store.set(at('10.0.0.2')), store.set({ ...at('10.0.0.3'), phase: 'Configuring' }));
  writes.push(store.remove('10.0.0.2'), store.set(at('10.0.0.3')));
  release?.();
  await Promise.all(writes);
  t.deepEqual(calls, ['patch 10.0.0.1', 'patch 10.0.0.2,10.0.0.3']);
  t.deepEqual(Object.keys(data()).sort(), ['10.0.0.1', '10.0.0.3']);
  t.is((JSON.parse(data()['10.0.0.3']!) as InstanceStatus).phase, 'Ready', 'the latest value of a key');
});

test('a patch made after a pruning write is not folded into one made before it', async (t) => {
  const { api, calls, data } = fakeApi(true);
  const store = new ConfigMapStatusStore(api, 'ns');
  const writes = [store.set(at('10.0.0.1')), store.retain(() => false), store.set(at('10.0.0.2'))];
  await Promise.all(writes);
  t.deepEqual(calls, ['patch 10.0.0.1', 'read', 'replace', 'patch 10.0.0.2']);
  t.deepEqual(Object.keys(data()), ['10.0.0.2']);
});
