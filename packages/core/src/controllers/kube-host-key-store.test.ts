import test from 'ava';
import type { CoreV1Api } from '@kubernetes/client-node';
import { oneConfigMap, type OneConfigMap } from '../kube/one-configmap.test-helper.js';
import { ConfigMapHostKeyStore } from './kube-host-key-store.js';

/** A CoreV1Api holding (or not) the pins ConfigMap, logging each call. */
const fakeApi = (exists: boolean): OneConfigMap =>
  oneConfigMap(exists ? { metadata: { name: 'pins' }, data: { other: 'ssh-rsa AAAA' } } : undefined);

test('a pin is one merge patch of its own key: no read, no replace, no conflict with other pins', async (t) => {
  const { api, calls, data } = fakeApi(true);
  const store = new ConfigMapHostKeyStore(api, 'ns', 'pins');
  await Promise.all([
    store.pin('10.0.0.1', { type: 'ssh-ed25519', base64: 'AAA1' }),
    store.pin('10.0.0.2', { type: 'ssh-ed25519', base64: 'AAA2' }),
  ]);
  t.deepEqual(calls, ['patch', 'patch']);
  t.deepEqual(data(), {
    other: 'ssh-rsa AAAA',
    '10.0.0.1': 'ssh-ed25519 AAA1',
    '10.0.0.2': 'ssh-ed25519 AAA2',
  });
});

test('the first pin creates the ConfigMap', async (t) => {
  const { api, calls, data } = fakeApi(false);
  await new ConfigMapHostKeyStore(api, 'ns', 'pins').pin('10.0.0.1', { type: 'ssh-ed25519', base64: 'AAA1' });
  t.is(calls[0], 'patch');
  t.true(calls.includes('create'));
  t.deepEqual(data(), { '10.0.0.1': 'ssh-ed25519 AAA1' });
});

test('forgetting a host reads once and deletes its pins with one merge patch; nothing pinned, no write', async (t) => {
  const { api, calls, data } = fakeApi(true);
  const store = new ConfigMapHostKeyStore(api, 'ns', 'pins');
  await store.pin('10.0.0.1', { type: 'ssh-ed25519', base64: 'AAA1' });
  await store.pin('10.0.0.1:2222', { type: 'ssh-ed25519', base64: 'AAA1' });
  calls.length = 0;
  t.deepEqual([...(await store.forgetHosts(['10.0.0.1']))].sort(), ['10.0.0.1', '10.0.0.1:2222']);
  t.deepEqual(calls, ['read', 'patch']);
  t.deepEqual(data(), { other: 'ssh-rsa AAAA' });
  calls.length = 0;
  await store.forget('10.0.0.7');
  t.deepEqual(calls, ['read']);
});

test('a pin whose ConfigMap another pin created meanwhile is patched in', async (t) => {
  let data: Record<string, string> | undefined;
  const calls: string[] = [];
  const api = {
    patchNamespacedConfigMap: (r: { body: { data: Record<string, string> } }) => {
      calls.push('patch');
      if (data === undefined) return Promise.reject(Object.assign(new Error('not found'), { code: 404 }));
      data = { ...data, ...r.body.data };
      return Promise.resolve({});
    },
    // The other pin's create lands between this pin's 404 and its own create, which gets 409.
    createNamespacedConfigMap: () => {
      calls.push('create');
      data = { other: 'ssh-rsa AAAA' };
      return Promise.reject(Object.assign(new Error('already exists'), { code: 409 }));
    },
  } as unknown as CoreV1Api;
  await new ConfigMapHostKeyStore(api, 'ns', 'pins').pin('10.0.0.1', { type: 'ssh-ed25519', base64: 'AAA1' });
  t.deepEqual(calls, ['patch', 'create', 'patch']);
  t.deepEqual(data, { other: 'ssh-rsa AAAA', '10.0.0.1': 'ssh-ed25519 AAA1' });
});
