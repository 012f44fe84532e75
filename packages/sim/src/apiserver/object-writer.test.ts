import test from 'ava';
import { ObjectStore } from './object-store.js';
import { ObjectWriter } from './object-writer.js';
import { ApiError } from './status.js';
import { TypeRegistry } from './type-registry.js';

function setup(): { w: ObjectWriter; events: string[] } {
  const w = new ObjectWriter(new ObjectStore(), new TypeRegistry());
  w.create(w.registry.mustFind('', 'v1', 'namespaces'), undefined, { metadata: { name: 'ns' } });
  const events: string[] = [];
  w.store.subscribe((e) =>
    events.push(`${e.type}:${String((e.object['metadata'] as { name?: string }).name)}`),
  );
  return { w, events };
}

const code = (fn: () => unknown): number | undefined => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return e instanceof ApiError ? e.code : -1;
  }
};

test('server-set metadata, one resourceVersion counter across types', (t) => {
  const { w } = setup();
  const cm = w.create(w.registry.mustFind('', 'v1', 'configmaps'), 'ns', {
    metadata: { name: 'a', uid: 'mine', resourceVersion: '1' },
  });
  const sa = w.create(w.registry.mustFind('', 'v1', 'serviceaccounts'), 'ns', { metadata: { name: 'b' } });
  const m = cm['metadata'] as Record<string, string>;
  t.not(m['uid'], 'mine');
  t.regex(m['creationTimestamp'] ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  t.is(
    Number((sa['metadata'] as Record<string, string>)['resourceVersion']),
    Number(m['resourceVersion']) + 1,
  );
  t.is(cm['kind'], 'ConfigMap');
  t.is(cm['apiVersion'], 'v1');
});

test('bad input is a clear 4xx: names, namespaces, kinds', (t) => {
  const { w } = setup();
  const cms = w.registry.mustFind('', 'v1', 'configmaps');
  t.is(
    code(() => w.create(cms, 'ns', { metadata: { name: 'Bad_Name' } })),
    422,
  );
  t.is(
    code(() => w.create(cms, 'ns', { metadata: { name: 'a', namespace: 'other' } })),
    400,
  );
  t.is(
    code(() => w.create(cms, 'missing', { metadata: { name: 'a' } })),
    404,
  );
  t.is(
    code(() => w.create(cms, 'ns', { kind: 'Secret', metadata: { name: 'a' } })),
    400,
  );
  t.is(
    code(() => w.update({ type: cms, namespace: 'ns', name: 'nope' }, { metadata: { name: 'nope' } })),
    404,
  );
  const roles = w.registry.mustFind('rbac.authorization.k8s.io', 'v1', 'clusterroles');
  t.is(
    code(() => w.create(roles, undefined, { metadata: { name: 'system:colons-are:fine' } })),
    undefined,
  );
});

test('update: no-op commits nothing; a name mismatch is 400; a deleted object with no finalizers left is removed', (t) => {
  const { w, events } = setup();
  const cms = w.registry.mustFind('', 'v1', 'configmaps');
  const cm = w.create(cms, 'ns', { metadata: { name: 'x', finalizers: ['f'] }, data: { a: '1' } });
  const target = { type: cms, namespace: 'ns', name: 'x' };
  t.deepEqual(w.update(target, structuredClone(cm)), cm);
  t.deepEqual(events, ['ADDED:x']);
  t.is(
    code(() => w.update(target, { metadata: { name: 'y' } })),
    400,
  );
  w.delete(cms, 'ns', 'x');
  w.mutate(target, (c) => ({ ...c, metadata: { ...(c['metadata'] as object), finalizers: [] } }));
  t.deepEqual(events, ['ADDED:x', 'MODIFIED:x', 'DELETED:x']);
  t.is(w.store.get(cms, 'ns', 'x'), undefined);
});
