import test from 'ava';
import { request } from 'node:https';
import { rawCall } from '../testing/raw-client.js';
import type { SimApiServer } from './api-server.js';
import { startApiServerWith } from './started-api-server.test-helper.js';

let sim: SimApiServer;
test.before(async () => {
  sim = await startApiServerWith(['default']);
});
test.after.always(async () => {
  await sim.stop();
});

const call = (path: string, r: Parameters<typeof rawCall>[3] = {}): ReturnType<typeof rawCall> =>
  rawCall(sim.url, sim.caPem, path, { token: sim.admin.token, ...r });

test.serial('a wrong bearer token is 401 with a Status body', async (t) => {
  const r = await call('/api/v1/namespaces', { token: 'nope' });
  t.is(r.code, 401);
  t.like(r.json(), {
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    reason: 'Unauthorized',
    code: 401,
  });
});

test.serial('/version is never cached (the kubectl dispatcher pitfall)', async (t) => {
  const r = await call('/version');
  t.is(r.headers['cache-control'], 'no-cache, private');
  t.like(r.json(), { major: '1', minor: '36' });
});

test.serial('aggregated discovery only when asked for, with the exact Content-Type', async (t) => {
  const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
  const agg = await call('/apis', { headers: { Accept: accept } });
  t.is(agg.headers['content-type'], 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
  t.is(agg.json<{ kind: string }>().kind, 'APIGroupDiscoveryList');
  t.is((await call('/apis')).json<{ kind: string }>().kind, 'APIGroupList');
  const v1 = (await call('/api/v1')).json<{ resources: { name: string; group?: string; kind: string }[] }>();
  t.like(
    v1.resources.find((r) => r.name === 'pods/eviction'),
    { group: 'policy', kind: 'Eviction' },
  );
  t.is((await call('/apis/nope.example.com/v1')).code, 404);
});

test.serial('watch headers are flushed before any event', async (t) => {
  const rv = (await call('/api/v1/namespaces/default/configmaps')).json<{
    metadata: { resourceVersion: string };
  }>().metadata.resourceVersion;
  const code = await new Promise<number>((resolve, reject) => {
    const req = request(
      new URL(`/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}`, sim.url),
      { ca: sim.caPem, headers: { Authorization: `Bearer ${sim.admin.token}` } },
      (res) => {
        resolve(res.statusCode ?? 0);
        t.is(res.headers['content-type'], 'application/json');
        req.destroy();
      },
    );
    req.on('error', (e) => (e.message.includes('socket hang up') ? undefined : reject(e)));
    req.end();
    setTimeout(() => reject(new Error('no watch headers within 5 s')), 5000).unref();
  });
  t.is(code, 200);
});

test.serial('fault hooks: 429 with Retry-After, 503, forced 409, slow responses', async (t) => {
  sim.faults.failNext(429, { retryAfterSeconds: 3 });
  const r = await call('/api/v1/namespaces');
  t.is(r.code, 429);
  t.is(r.headers['retry-after'], '3');
  sim.faults.failNext(503, { match: (_m, p) => p.includes('configmaps') });
  t.is((await call('/api/v1/namespaces')).code, 200, 'the matcher limits the fault');
  t.is(sim.faults.pending(), 1, 'the 503 waits for a matching request');
  t.is((await call('/api/v1/namespaces/default/configmaps')).code, 503);
  t.is(sim.faults.pending(), 0, 'every injected error was answered');
  await call('/api/v1/namespaces/default/configmaps', { method: 'POST', body: { metadata: { name: 'f' } } });
  sim.faults.conflictNext();
  const put = await call('/api/v1/namespaces/default/configmaps/f', {
    method: 'PUT',
    body: { metadata: { name: 'f' }, data: { a: 'b' } },
  });
  t.is(put.code, 409);
  sim.faults.latencyMs = 150;
  const started = Date.now();
  await call('/version');
  t.true(Date.now() - started >= 140);
  sim.faults.clear();
});

test.serial('restart: connections are refused for the window, then served on the same port', async (t) => {
  const restarting = sim.faults.restart(1500);
  await new Promise((r) => setTimeout(r, 20));
  const err = await t.throwsAsync(call('/version'));
  t.regex(err.message, /ECONNREFUSED|socket hang up|ECONNRESET/);
  await restarting;
  t.is((await call('/version')).code, 200);
});

test.serial(
  'strategic merge on a built-in, 415 for an unknown patch type, 405 for PUT on a collection',
  async (t) => {
    await call('/api/v1/namespaces/default/configmaps', {
      method: 'POST',
      body: { metadata: { name: 'smp', finalizers: ['a'] } },
    });
    const r = await call('/api/v1/namespaces/default/configmaps/smp', {
      method: 'PATCH',
      contentType: 'application/strategic-merge-patch+json',
      body: { metadata: { finalizers: ['b'] } },
    });
    t.deepEqual(r.json<{ metadata: { finalizers: string[] } }>().metadata.finalizers, ['a', 'b']);
    t.is(
      (
        await call('/api/v1/namespaces/default/configmaps/smp', {
          method: 'PATCH',
          contentType: 'text/plain',
          body: '{}',
        })
      ).code,
      415,
    );
    t.is((await call('/api/v1/namespaces/default/configmaps', { method: 'PUT', body: {} })).code, 405);
  },
);

test.serial('list limit/continue pages through a collection', async (t) => {
  for (const n of ['p1', 'p2', 'p3'])
    await call('/api/v1/namespaces/default/configmaps', {
      method: 'POST',
      body: { metadata: { name: n, labels: { page: 'y' } } },
    });
  const first = (await call('/api/v1/namespaces/default/configmaps?labelSelector=page%3Dy&limit=2')).json<{
    items: { metadata: { name: string } }[];
    metadata: { continue?: string };
  }>();
  t.deepEqual(
    first.items.map((i) => i.metadata.name),
    ['p1', 'p2'],
  );
  const second = (
    await call(
      `/api/v1/namespaces/default/configmaps?labelSelector=page%3Dy&limit=2&continue=${first.metadata.continue ?? ''}`,
    )
  ).json<{ items: { metadata: { name: string } }[]; metadata: { continue?: string } }>();
  t.deepEqual(
    second.items.map((i) => i.metadata.name),
    ['p3'],
  );
  t.is(second.metadata.continue, undefined);
});

test.serial(
  'Node /status takes a strategic merge of conditions (what a kubelet sends); deletecollection by label',
  async (t) => {
    const nodes = '/api/v1/nodes';
    await call(nodes, {
      method: 'POST',
      body: {
        metadata: { name: 'n1' },
        status: {
          conditions: [
            { type: 'Ready', status: 'False' },
            { type: 'MemoryPressure', status: 'False' },
          ],
        },
      },
    });
    const patched = await call(`${nodes}/n1/status`, {
      method: 'PATCH',
      contentType: 'application/strategic-merge-patch+json',
      body: { status: { conditions: [{ type: 'Ready', status: 'True' }] }, spec: { unschedulable: true } },
    });
    const node = patched.json<{
      spec?: { unschedulable?: boolean };
      status: { conditions: { type: string; status: string }[] };
    }>();
    t.deepEqual(node.status.conditions, [
      { type: 'Ready', status: 'True' },
      { type: 'MemoryPressure', status: 'False' },
    ]);
    t.is(node.spec?.unschedulable, undefined, '/status ignores spec');
    for (const n of ['dc1', 'dc2', 'keep']) {
      await call('/api/v1/namespaces/default/configmaps', {
        method: 'POST',
        body: { metadata: { name: n, labels: { dc: n === 'keep' ? 'no' : 'yes' } } },
      });
    }
    const del = await call('/api/v1/namespaces/default/configmaps?labelSelector=dc%3Dyes', {
      method: 'DELETE',
    });
    t.is(del.code, 200);
    t.is((await call('/api/v1/namespaces/default/configmaps/dc1')).code, 404);
    t.is((await call('/api/v1/namespaces/default/configmaps/keep')).code, 200);
  },
);

test.serial('requests are counted by authenticated user; a bad token counts as no one', async (t) => {
  const before = sim.requestsByUser.get('admin') ?? 0;
  const none = sim.requestsByUser.get('') ?? 0;
  await call('/api/v1/namespaces');
  await call('/api/v1/namespaces/default');
  await call('/api/v1/namespaces', { token: 'nope' });
  t.is(sim.requestsByUser.get('admin'), before + 2);
  t.is(sim.requestsByUser.get(''), none + 1);
});
