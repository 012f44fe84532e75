import test from 'ava';
import { rawCall, type RawRequest, type RawResponse } from '../testing/raw-client.js';
import { SimApiServer } from './api-server.js';

// dryRun=All on create, update, patch and delete (DryRunnableStorage upstream): every check runs, the answer
// looks like the real write's, and nothing is stored, versioned or sent to watchers.

async function start(): Promise<{
  s: SimApiServer;
  call: (p: string, r?: RawRequest) => Promise<RawResponse>;
}> {
  const s = await SimApiServer.start();
  const call = (p: string, r: RawRequest = {}): Promise<RawResponse> =>
    rawCall(s.url, s.caPem, p, { token: s.admin.token, ...r });
  await call('/api/v1/namespaces', { method: 'POST', body: { metadata: { name: 'ns' } } });
  return { s, call };
}

const CMS = '/api/v1/namespaces/ns/configmaps';

test('create: validated and admitted, uid and timestamp set, no resourceVersion, nothing stored or sent', async (t) => {
  const { s, call } = await start();
  t.teardown(() => s.stop());
  const events: string[] = [];
  s.store.subscribe((e) => events.push(e.type));
  const rv = s.store.currentRv;
  const r = await call(`${CMS}?dryRun=All`, {
    method: 'POST',
    body: { metadata: { name: 'a' }, data: { k: 'v' } },
  });
  t.is(r.code, 201, r.text);
  const m = r.json<{ metadata: Record<string, string> }>().metadata;
  t.truthy(m['uid']);
  t.truthy(m['creationTimestamp']);
  t.is(m['resourceVersion'], undefined);
  t.is((await call(`${CMS}/a`)).code, 404);
  t.is(s.store.currentRv, rv);
  t.deepEqual(events, []);
  const bad = await call(`${CMS}?dryRun=All`, { method: 'POST', body: { metadata: { name: 'Bad_Name' } } });
  t.is(bad.code, 422);
  await call(CMS, { method: 'POST', body: { metadata: { name: 'a' } } });
  t.is((await call(`${CMS}?dryRun=All`, { method: 'POST', body: { metadata: { name: 'a' } } })).code, 409);
});

test('update and patch: the result with the current resourceVersion, stored object unchanged; conflicts still 409', async (t) => {
  const { s, call } = await start();
  t.teardown(() => s.stop());
  const made = (
    await call(CMS, { method: 'POST', body: { metadata: { name: 'a' }, data: { k: 'v' } } })
  ).json<{
    metadata: { resourceVersion: string };
  }>();
  const rv = made.metadata.resourceVersion;
  const put = await call(`${CMS}/a?dryRun=All`, {
    method: 'PUT',
    body: { metadata: { name: 'a' }, data: { k: 'new' } },
  });
  t.is(put.code, 200, put.text);
  t.deepEqual(put.json<{ data: unknown }>().data, { k: 'new' });
  t.is(put.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion, rv);
  const patch = await call(`${CMS}/a?dryRun=All`, {
    method: 'PATCH',
    contentType: 'application/merge-patch+json',
    body: { data: { m: '1' } },
  });
  t.deepEqual(patch.json<{ data: unknown }>().data, { k: 'v', m: '1' });
  t.deepEqual((await call(`${CMS}/a`)).json<{ data: unknown }>().data, { k: 'v' });
  t.is(s.store.currentRv, Number(rv));
  const stale = await call(`${CMS}/a?dryRun=All`, {
    method: 'PUT',
    body: { metadata: { name: 'a', resourceVersion: '1' }, data: {} },
  });
  t.is(stale.code, 409);
});

test('delete: the real answer (Status, or the object with deletionTimestamp when finalizers remain); still there', async (t) => {
  const { s, call } = await start();
  t.teardown(() => s.stop());
  await call(CMS, { method: 'POST', body: { metadata: { name: 'a' } } });
  await call(CMS, { method: 'POST', body: { metadata: { name: 'held', finalizers: ['example.com/x'] } } });
  const del = await call(`${CMS}/a`, {
    method: 'DELETE',
    body: { dryRun: ['All'], propagationPolicy: 'Background' },
  });
  t.is(del.code, 200);
  t.is(del.json<{ kind: string; status: string }>().status, 'Success');
  t.is((await call(`${CMS}/a`)).code, 200);
  const held = await call(`${CMS}/held?dryRun=All`, { method: 'DELETE' });
  t.truthy(held.json<{ metadata: { deletionTimestamp?: string } }>().metadata.deletionTimestamp);
  t.is(
    (await call(`${CMS}/held`)).json<{ metadata: { deletionTimestamp?: string } }>().metadata
      .deletionTimestamp,
    undefined,
  );
  const coll = await call(`${CMS}?dryRun=All`, { method: 'DELETE' });
  t.is(coll.code, 200);
  t.is((await call(CMS)).json<{ items: unknown[] }>().items.length, 2);
});

test('a dryRun value other than All is 422 naming the options kind, as upstream', async (t) => {
  const { s, call } = await start();
  t.teardown(() => s.stop());
  const r = await call(`${CMS}?dryRun=true`, { method: 'POST', body: { metadata: { name: 'a' } } });
  t.is(r.code, 422);
  t.is(
    r.json<{ message: string }>().message,
    'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: "true": supported values: "All"',
  );
  const d = await call(`${CMS}/a`, { method: 'DELETE', body: { dryRun: ['Some'] } });
  t.is(d.code, 422);
  t.regex(d.json<{ message: string }>().message, /^DeleteOptions\.meta\.k8s\.io "" is invalid/);
});
