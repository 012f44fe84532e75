import test from 'ava';
import type { CoordinationV1Api, V1Lease } from '@kubernetes/client-node';
import { KubeLeaseStore } from './kube-lease-store.js';

// What reaches the wire: the request body as JSON, which is how client-node sends an object it does not
// know how to serialise further (V1MicroTime is not in its type map, so its own toJSON decides).
function capturingApi(): { api: CoordinationV1Api; sent: unknown[] } {
  const sent: unknown[] = [];
  const echo = (r: { body: V1Lease }): Promise<V1Lease> => {
    sent.push(JSON.parse(JSON.stringify(r.body)));
    return Promise.resolve({ ...r.body, metadata: { ...r.body.metadata, resourceVersion: '7' } });
  };
  const api = { createNamespacedLease: echo, replaceNamespacedLease: echo };
  return { api: api as unknown as CoordinationV1Api, sent };
}

const record = {
  holderIdentity: 'wmco-1',
  leaseDurationSeconds: 137,
  acquireTime: '2026-11-27T09:00:00.123Z',
  renewTime: '2026-11-27T09:00:10.456Z',
  leaseTransitions: 0,
};

test('acquireTime and renewTime go out as MicroTime: six fractional digits, as the API server requires', async (t) => {
  const { api, sent } = capturingApi();
  const store = new KubeLeaseStore(api, 'ns', 'lock');
  await store.create(record);
  await store.update({ ...record, resourceVersion: '7' });
  for (const body of sent as { spec: Record<string, string> }[]) {
    t.is(body.spec['acquireTime'], '2026-11-27T09:00:00.123000Z');
    t.is(body.spec['renewTime'], '2026-11-27T09:00:10.456000Z');
  }
  t.is(sent.length, 2);
});

test('a Lease read back with microseconds gives the same instant to leader election', async (t) => {
  const { api } = capturingApi();
  const store = new KubeLeaseStore(api, 'ns', 'lock');
  const back = await store.create(record);
  t.is(back.renewTime, '2026-11-27T09:00:10.456Z');
  t.is(back.resourceVersion, '7');
});
