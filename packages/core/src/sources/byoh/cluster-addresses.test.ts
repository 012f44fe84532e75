import test from 'ava';
import type { CoreV1Api, V1Node } from '@kubernetes/client-node';
import { instanceAddressProblem } from '../../desired/instance-address.js';
import { ClusterAddresses } from './cluster-addresses.js';

function fakeNodes(nodes: V1Node[]): { api: CoreV1Api; selectors: string[] } {
  const selectors: string[] = [];
  const api = {
    listNode: (r: { labelSelector?: string }) => {
      selectors.push(r.labelSelector ?? '');
      return Promise.resolve({ items: nodes });
    },
  } as unknown as CoreV1Api;
  return { api, selectors };
}

const master: V1Node = {
  metadata: { name: 'master-0' },
  status: {
    addresses: [
      { type: 'InternalIP', address: '10.0.0.10' },
      { type: 'ExternalIP', address: '203.0.113.10' },
      { type: 'Hostname', address: 'master-0' },
    ],
  },
};

test("the API server's address and the non-Windows nodes' addresses are refused", async (t) => {
  const { api, selectors } = fakeNodes([master]);
  const addresses = new ClusterAddresses({
    core: api,
    apiUrls: () => Promise.resolve(['https://127.0.0.1:6443', 'https://api-int.test.example:6443']),
    resolve: (n) =>
      n === 'api-int.test.example' ? Promise.resolve(['10.0.0.2']) : Promise.reject(new Error('nx')),
    allowLoopback: true,
  });
  const policy = await addresses.policy();
  t.deepEqual(selectors, ['kubernetes.io/os!=windows']);
  t.regex(instanceAddressProblem('127.0.0.1', policy) ?? '', /API server/);
  t.regex(instanceAddressProblem('10.0.0.2', policy) ?? '', /API server/);
  t.regex(instanceAddressProblem('10.0.0.10', policy) ?? '', /node master-0/);
  t.regex(instanceAddressProblem('203.0.113.10', policy) ?? '', /node master-0/);
  t.is(instanceAddressProblem('127.0.200.11', policy), undefined);
  t.is(instanceAddressProblem('10.0.0.50', policy), undefined);
});

test('loopback stays refused unless allowed, and an unresolvable API name is skipped', async (t) => {
  const addresses = new ClusterAddresses({
    core: fakeNodes([]).api,
    apiUrls: () => Promise.resolve(['https://api-int.nowhere:6443', 'not a url']),
    resolve: () => Promise.reject(new Error('NXDOMAIN')),
    allowLoopback: false,
  });
  const policy = await addresses.policy();
  t.is(policy.reserved.size, 0);
  t.regex(instanceAddressProblem('127.0.200.11', policy) ?? '', /loopback/);
});

test('answers are reused for the TTL, then read again', async (t) => {
  const { api, selectors } = fakeNodes([master]);
  let now = 0;
  const addresses = new ClusterAddresses({
    core: api,
    apiUrls: () => Promise.resolve([]),
    resolve: () => Promise.resolve([]),
    allowLoopback: false,
    ttlMs: 1000,
    now: () => now,
  });
  await addresses.policy();
  await addresses.policy();
  t.is(selectors.length, 1);
  now = 1500;
  await addresses.policy();
  t.is(selectors.length, 2);
});
