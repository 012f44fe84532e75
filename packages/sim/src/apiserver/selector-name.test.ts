import test from 'ava';
import { request } from 'node:https';
import { rawCall } from '../testing/raw-client.js';
import { SimApiServer } from './api-server.js';
import { nameFromFieldSelector } from './selector-name.js';

test('the name of a metadata.name field selector, as RequestInfoFactory reads it', (t) => {
  t.is(nameFromFieldSelector('metadata.name=s1'), 's1');
  t.is(nameFromFieldSelector('metadata.name==s1'), 's1');
  t.is(nameFromFieldSelector('type=Opaque,metadata.name=s1'), 's1');
  t.is(nameFromFieldSelector('metadata.name!=s1'), undefined);
  t.is(nameFromFieldSelector('metadata.namespace=s1'), undefined);
  t.is(nameFromFieldSelector('metadata.name=a/b'), undefined);
  t.is(nameFromFieldSelector('metadata.name=..'), undefined);
  t.is(nameFromFieldSelector(null), undefined);
});

/** Opens a watch, reads the status code and closes it at once. */
function watchCode(sim: SimApiServer, token: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, sim.url),
      { ca: sim.caPem, headers: { Authorization: `Bearer ${token}` } },
      (res) => {
        resolve(res.statusCode ?? 0);
        res.destroy();
        req.destroy();
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('with RBAC, list/watch of one Secret by field selector is authorized against resourceNames', async (t) => {
  const sim = await SimApiServer.start({ rbac: true });
  t.teardown(() => sim.stop());
  const type = (group: string, plural: string): ReturnType<typeof sim.registry.mustFind> =>
    sim.registry.mustFind(group, 'v1', plural);
  const rbac = 'rbac.authorization.k8s.io';
  sim.writer.create(type('', 'namespaces'), undefined, { metadata: { name: 'ns' } });
  sim.writer.create(type(rbac, 'roles'), 'ns', {
    metadata: { name: 'one-secret', namespace: 'ns' },
    rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['list', 'watch'], resourceNames: ['s1'] }],
  });
  sim.writer.create(type(rbac, 'rolebindings'), 'ns', {
    metadata: { name: 'one-secret', namespace: 'ns' },
    roleRef: { apiGroup: rbac, kind: 'Role', name: 'one-secret' },
    subjects: [{ kind: 'ServiceAccount', name: 'op', namespace: 'ns' }],
  });
  for (const name of ['s1', 's2']) {
    sim.writer.create(type('', 'secrets'), 'ns', { metadata: { name, namespace: 'ns' }, data: {} });
  }
  const op = sim.addServiceAccount('ns', 'op');
  const list = (query: string): ReturnType<typeof rawCall> =>
    rawCall(sim.url, sim.caPem, `/api/v1/namespaces/ns/secrets${query}`, { token: op.token });

  const one = await list('?fieldSelector=metadata.name%3Ds1');
  t.is(one.code, 200);
  t.deepEqual(
    one.json<{ items: { metadata: { name: string } }[] }>().items.map((i) => i.metadata.name),
    ['s1'],
  );
  t.is((await list('?fieldSelector=metadata.name%3Ds2')).code, 403);
  t.is((await list('')).code, 403, 'the whole collection stays forbidden');
  t.is((await list('?fieldSelector=metadata.name!%3Ds2')).code, 403);
  t.is(
    await watchCode(
      sim,
      op.token,
      '/api/v1/namespaces/ns/secrets?watch=true&fieldSelector=metadata.name%3Ds1',
    ),
    200,
  );
  t.is(
    await watchCode(
      sim,
      op.token,
      '/api/v1/namespaces/ns/secrets?watch=true&fieldSelector=metadata.name%3Ds2',
    ),
    403,
  );
});
