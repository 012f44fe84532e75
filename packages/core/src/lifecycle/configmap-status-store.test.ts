import test from 'ava';
import type { CoreV1Api, V1ConfigMap } from '@kubernetes/client-node';
import { ConfigMapStatusStore } from './configmap-status-store.js';
import type { InstanceStatus } from './instance-status.js';

const at = (address: string): InstanceStatus => ({
  address,
  phase: 'Ready',
  since: '2026-01-01T00:00:00.000Z',
  phaseSeconds: {},
});

/** A CoreV1Api holding (or not) the status ConfigMap, logging each call the store makes. */
function fakeApi(exists: boolean): { api: CoreV1Api; calls: string[]; data: () => Record<string, string> } {
  let cm: V1ConfigMap | undefined = exists
    ? { metadata: { name: 'windows-instances-status' }, data: {} }
    : undefined;
  const calls: string[] = [];
  const notFound = (): Promise<never> => Promise.reject(Object.assign(new Error('not found'), { code: 404 }));
  const api = {
    readNamespacedConfigMap: () => (
      calls.push('read'),
      cm ? Promise.resolve(structuredClone(cm)) : notFound()
    ),
    replaceNamespacedConfigMap: (r: { body: V1ConfigMap }) => (
      calls.push('replace'),
      (cm = r.body),
      Promise.resolve(cm)
    ),
    createNamespacedConfigMap: (r: { body: V1ConfigMap }) => (
      calls.push('create'),
      (cm = r.body),
      Promise.resolve(cm)
    ),
    patchNamespacedConfigMap: (r: { body: { data: Record<string, string | null> } }) => {
      calls.push(`patch ${Object.keys(r.body.data).join(',')}`);
      if (!cm) return notFound();
      const data = { ...cm.data };
      for (const [k, v] of Object.entries(r.body.data))
        if (v === null) delete data[k];
        else data[k] = v;
      cm = { ...cm, data };
      return Promise.resolve(cm);
    },
  } as unknown as CoreV1Api;
  return { api, calls, data: () => cm?.data ?? {} };
}

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
