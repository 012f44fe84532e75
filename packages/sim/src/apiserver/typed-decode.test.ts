import test from 'ava';
import { decodeTyped } from './typed-decode.js';

test('ConfigMap: map keys come back sorted, struct fields keep their order', (t) => {
  const d = decodeTyped('V1ConfigMap', {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'c', labels: { z: '1', a: '2' }, annotations: { y: '', b: '' } },
    data: { zeta: '1', alpha: '2', mid: '3' },
  });
  t.deepEqual(Object.keys(d.object), ['apiVersion', 'kind', 'metadata', 'data']);
  t.deepEqual(Object.keys(d.object['data'] as object), ['alpha', 'mid', 'zeta']);
  const m = d.object['metadata'] as Record<string, object>;
  t.deepEqual(Object.keys(m['labels'] ?? {}), ['a', 'z']);
  t.deepEqual(Object.keys(m['annotations'] ?? {}), ['b', 'y']);
  t.deepEqual(d.unknown, []);
});

test("wrong JSON types fail with the message of Go's decoder (first mismatch wins)", (t) => {
  t.throws(() => decodeTyped('V1ConfigMap', { data: { a: 1 } }), {
    message: 'json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
  });
  t.throws(() => decodeTyped('V1ConfigMap', { data: ['a'] }), {
    message: 'json: cannot unmarshal array into Go struct field ConfigMap.data of type map[string]string',
  });
  t.throws(() => decodeTyped('V1Lease', { spec: { holderIdentity: 3, leaseDurationSeconds: '15' } }), {
    message:
      'json: cannot unmarshal number into Go struct field LeaseSpec.spec.holderIdentity of type string',
  });
  t.throws(() => decodeTyped('V1Lease', { spec: { leaseDurationSeconds: 1.5 } }), {
    message:
      'json: cannot unmarshal number 1.5 into Go struct field LeaseSpec.spec.leaseDurationSeconds of type int32',
  });
  t.throws(
    () => decodeTyped('V1Node', { spec: { taints: [{ key: 'k', effect: 'NoSchedule', value: true }] } }),
    {
      message: 'json: cannot unmarshal bool into Go struct field Taint.spec.taints.value of type string',
    },
  );
  t.throws(() => decodeTyped('V1Node', { spec: { unschedulable: 'yes' } }), {
    message: 'json: cannot unmarshal string into Go struct field NodeSpec.spec.unschedulable of type bool',
  });
});

test('MicroTime needs six fractional digits; Time takes fractions and drops them', (t) => {
  t.throws(() => decodeTyped('V1Lease', { spec: { renewTime: '2026-11-27T09:00:00.123Z' } }), {
    message: /cannot parse "\.123Z" as "\.000000"/,
  });
  const lease = decodeTyped('V1Lease', {
    metadata: { creationTimestamp: '2026-11-27T09:00:00.5Z' },
    spec: { renewTime: '2026-11-27T09:00:00.123456Z', acquireTime: null },
  }).object;
  t.deepEqual(lease['spec'], { renewTime: '2026-11-27T09:00:00.123456Z' });
  t.deepEqual(lease['metadata'], { creationTimestamp: '2026-11-27T09:00:00Z' });
  const ev = decodeTyped('CoreV1Event', {
    eventTime: '2026-11-27T09:00:00.000001Z',
    lastTimestamp: '2026-11-27T09:00:00.999Z',
  }).object;
  t.like(ev, { eventTime: '2026-11-27T09:00:00.000001Z', lastTimestamp: '2026-11-27T09:00:00Z' });
  t.throws(() => decodeTyped('EventsV1Event', { eventTime: '2026-11-27T09:00:00Z' }), {
    message: /as "2006-01-02T15:04:05.000000Z07:00"/,
  });
  t.throws(() => decodeTyped('V1Node', { status: { conditions: [{ lastHeartbeatTime: 5 }] } }), {
    message: 'json: cannot unmarshal number into Go value of type string',
  });
});

test('unknown fields are reported by path and dropped; maps of structs and lists recurse', (t) => {
  const d = decodeTyped('V1Node', {
    metadata: { name: 'n', bogus: 1 },
    spec: { taints: [{ key: 'a', effect: 'NoSchedule', extra: 'x' }] },
    status: { capacity: { memory: '1Gi', cpu: 2 }, nope: {} },
  });
  t.deepEqual(d.unknown, ['metadata.bogus', 'spec.taints[0].extra', 'status.nope']);
  t.deepEqual(d.object, {
    metadata: { name: 'n' },
    spec: { taints: [{ key: 'a', effect: 'NoSchedule' }] },
    status: { capacity: { cpu: '2', memory: '1Gi' } },
  });
});

test('quantities, base64 and int-or-string decode as their Go types do', (t) => {
  t.throws(() => decodeTyped('V1Node', { status: { capacity: { cpu: 'lots' } } }), {
    message: /^quantities must match the regular expression/,
  });
  t.throws(() => decodeTyped('V1Secret', { data: { a: 'not base64!' } }), {
    message: /^illegal base64 data/,
  });
  t.deepEqual(decodeTyped('V1Secret', { data: { b: 'eA==', a: '' } }).object, { data: { a: '', b: 'eA==' } });
  const svc = decodeTyped('V1Service', {
    spec: {
      ports: [
        { port: 80, targetPort: 'http' },
        { port: 81, targetPort: 8081 },
      ],
    },
  });
  t.deepEqual(svc.object, {
    spec: {
      ports: [
        { port: 80, targetPort: 'http' },
        { port: 81, targetPort: 8081 },
      ],
    },
  });
  t.throws(() => decodeTyped('V1Service', { spec: { ports: [{ port: 80, targetPort: true }] } }), {
    message: 'json: cannot unmarshal bool into Go value of type int32',
  });
});
