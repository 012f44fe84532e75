import test from 'ava';
import { applyStrategicMergePatch } from './strategic-merge.js';

test('conditions merge by type, containers by name; other lists (taints) are replaced', (t) => {
  const node = {
    spec: { taints: [{ key: 'a', effect: 'NoSchedule' }] },
    status: {
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'DiskPressure', status: 'False' },
      ],
    },
  };
  const out = applyStrategicMergePatch(node, {
    spec: { taints: [{ key: 'b', effect: 'NoExecute' }] },
    status: { conditions: [{ type: 'Ready', status: 'False', reason: 'KubeletDown' }] },
  });
  t.deepEqual(out, {
    spec: { taints: [{ key: 'b', effect: 'NoExecute' }] },
    status: {
      conditions: [
        { type: 'Ready', status: 'False', reason: 'KubeletDown' },
        { type: 'DiskPressure', status: 'False' },
      ],
    },
  });
});

test('$patch: delete in a keyed list, $patch: replace on a map, null deletes', (t) => {
  const pod = {
    spec: {
      containers: [
        { name: 'a', image: '1' },
        { name: 'b', image: '2' },
      ],
    },
    metadata: { labels: { x: '1', y: '2' } },
  };
  const out = applyStrategicMergePatch(pod, {
    spec: {
      containers: [
        { name: 'b', $patch: 'delete' },
        { name: 'c', image: '3' },
      ],
    },
    metadata: { labels: { $patch: 'replace', z: '3' } },
  });
  t.deepEqual(out, {
    spec: {
      containers: [
        { name: 'a', image: '1' },
        { name: 'c', image: '3' },
      ],
    },
    metadata: { labels: { z: '3' } },
  });
  t.deepEqual(
    applyStrategicMergePatch({ spec: { unschedulable: true } }, { spec: { unschedulable: null } }),
    { spec: {} },
  );
});

test('finalizers form a union; $deleteFromPrimitiveList removes; $setElementOrder is ignored', (t) => {
  const out = applyStrategicMergePatch(
    { metadata: { finalizers: ['a', 'b'] } },
    {
      metadata: {
        finalizers: ['c'],
        '$deleteFromPrimitiveList/finalizers': ['a'],
        '$setElementOrder/finalizers': ['b', 'c'],
      },
    },
  );
  t.deepEqual(out, { metadata: { finalizers: ['b', 'c'] } });
});
