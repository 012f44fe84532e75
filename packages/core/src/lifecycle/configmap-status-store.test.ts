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
