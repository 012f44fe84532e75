import test from 'ava';
import * as k8s from '@kubernetes/client-node';
import { request } from 'node:https';
import { rawCall } from '../testing/raw-client.js';
import type { SimApiServer } from './api-server.js';
import { startApiServerWith } from './started-api-server.test-helper.js';

// The simulated server decodes built-ins as kube-apiserver does (issue 24): MicroTime/Time formats, Go's
// type errors, sorted map keys in every response, fieldValidation on built-ins.

let sim: SimApiServer;
let kc: k8s.KubeConfig;
test.before(async () => {
  sim = await startApiServerWith(['default']);
  kc = new k8s.KubeConfig();
  kc.loadFromString(sim.kubeconfig(sim.admin));
});
test.after.always(async () => {
  await sim.stop();
});

const call = (path: string, r: Parameters<typeof rawCall>[3] = {}): ReturnType<typeof rawCall> =>
  rawCall(sim.url, sim.caPem, path, { token: sim.admin.token, ...r });

async function apiError(p: Promise<unknown>): Promise<{ code: number; body: Record<string, unknown> }> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof k8s.ApiException)) throw e;
    const body = typeof e.body === 'string' ? (JSON.parse(e.body) as Record<string, unknown>) : {};
    return { code: e.code, body };
  }
  throw new Error('expected the call to fail');
}

test('a Lease with millisecond MicroTimes (client-node Dates) is 400, as on a real server', async (t) => {
  const leases = kc.makeApiClient(k8s.CoordinationV1Api);
  const when = new Date();
  const err = await apiError(
    leases.createNamespacedLease({
      namespace: 'default',
      body: { metadata: { name: 'ms' }, spec: { holderIdentity: 'a', acquireTime: when, renewTime: when } },
    }),
  );
  t.is(err.code, 400);
  t.is(err.body['reason'], 'BadRequest');
  t.regex(
    String(err.body['message']),
    /^Lease in version "v1" cannot be handled as a Lease: parsing time "[^"]+\.\d{3}Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "\.\d{3}Z" as "\.000000"$/,
  );
  t.is(
    sim.store.get(sim.registry.mustFind('coordination.k8s.io', 'v1', 'leases'), 'default', 'ms'),
    undefined,
  );
});

test('six-digit MicroTimes are stored and echoed; Time fields come back in whole seconds', async (t) => {
  const r = await call('/apis/coordination.k8s.io/v1/namespaces/default/leases', {
    method: 'POST',
    body: {
      metadata: { name: 'micro' },
      spec: { holderIdentity: 'a', renewTime: '2026-11-27T10:00:00.123456+01:00' },
    },
  });
  t.is(r.code, 201, r.text);
  t.is(r.json<{ spec: { renewTime: string } }>().spec.renewTime, '2026-11-27T09:00:00.123456Z');
  const node = await call('/api/v1/nodes', {
    method: 'POST',
    body: {
      metadata: { name: 'n1' },
      status: {
        conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2026-11-27T09:00:00.987Z' }],
      },
    },
  });
  t.is(node.code, 201, node.text);
  t.is(
    node.json<{ status: { conditions: { lastHeartbeatTime: string }[] } }>().status.conditions[0]
      ?.lastHeartbeatTime,
    '2026-11-27T09:00:00Z',
  );
  t.regex(node.json<{ metadata: { creationTimestamp: string } }>().metadata.creationTimestamp, /:\d\dZ$/);
});

test('a ConfigMap number is 400 with Go\'s message; a merge patch that makes one is 422 on "patch"', async (t) => {
  const bad = await call('/api/v1/namespaces/default/configmaps', {
    method: 'POST',
    body: { metadata: { name: 'num' }, data: { a: 1 } },
  });
  t.is(bad.code, 400);
  t.is(
    bad.json<{ message: string }>().message,
    'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
  );
  t.is(
    (
      await call('/api/v1/namespaces/default/configmaps', {
        method: 'POST',
        body: { metadata: { name: 'p' } },
      })
    ).code,
    201,
  );
  const patched = await call('/api/v1/namespaces/default/configmaps/p', {
    method: 'PATCH',
    contentType: 'application/merge-patch+json',
    body: { data: { a: true } },
  });
  t.is(patched.code, 422);
  const status = patched.json<{
    reason: string;
    details: { causes: { field: string; message: string }[] };
  }>();
  t.is(status.reason, 'Invalid');
  t.is(status.details.causes[0]?.field, 'patch');
  t.regex(
    status.details.causes[0]?.message ?? '',
    /cannot unmarshal bool into Go struct field ConfigMap.data of type string$/,
  );
});

function firstWatchLine(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, sim.url),
      { ca: sim.caPem, headers: { Authorization: `Bearer ${sim.admin.token}` } },
      (res) => {
        let buf = '';
        res.on('data', (c: Buffer) => {
          buf += c.toString('utf8');
          const nl = buf.indexOf('\n');
          if (nl >= 0) {
            resolve(buf.slice(0, nl));
            req.destroy();
          }
        });
      },
    );
    req.on('error', (e) => (e.message.includes('socket hang up') ? undefined : reject(e)));
    req.end();
  });
}

test('map keys are sorted in every response: create, get, list and watch', async (t) => {
  const text =
    '{"metadata":{"name":"order","labels":{"z":"1","a":"2"}},"data":{"zeta":"1","alpha":"2","mid":"3"}}';
  const created = await call('/api/v1/namespaces/default/configmaps', { method: 'POST', body: text });
  t.is(created.code, 201);
  const sortedData = '"data":{"alpha":"2","mid":"3","zeta":"1"}';
  t.true(created.text.includes(sortedData), created.text);
  t.true((await call('/api/v1/namespaces/default/configmaps/order')).text.includes(sortedData));
  const list = await call('/api/v1/namespaces/default/configmaps');
  t.true(list.text.includes(sortedData));
  t.true(list.text.includes('"labels":{"a":"2","z":"1"}'));
  const line = await firstWatchLine(
    '/api/v1/namespaces/default/configmaps?watch=true&fieldSelector=metadata.name%3Dorder',
  );
  t.true(line.includes(sortedData), line);
  // Keys the server adds itself (a Namespace's kubernetes.io/metadata.name label) are sorted too.
  const ns = await call('/api/v1/namespaces', {
    method: 'POST',
    body: { metadata: { name: 'sorted', labels: { 'zz.example.com/x': 'y' } } },
  });
  t.true(
    ns.text.includes('"labels":{"kubernetes.io/metadata.name":"sorted","zz.example.com/x":"y"}'),
    ns.text,
  );
});

test('fieldValidation on built-ins: Strict refuses, Warn drops with a Warning, Ignore drops silently', async (t) => {
  const body = { metadata: { name: 'fv', bogus: 1 }, data: { a: 'b' }, extra: true };
  const strict = await call('/api/v1/namespaces/default/configmaps?fieldValidation=Strict', {
    method: 'POST',
    body,
  });
  t.is(strict.code, 400);
  t.is(
    strict.json<{ message: string }>().message,
    'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.bogus", unknown field "extra"',
  );
  const warn = await call('/api/v1/namespaces/default/configmaps', { method: 'POST', body });
  t.is(warn.code, 201);
  t.deepEqual(
    warn.headers['warning'],
    '299 - "unknown field \\"metadata.bogus\\"", 299 - "unknown field \\"extra\\""',
  );
  t.false(warn.text.includes('bogus') || warn.text.includes('extra'));
  const ignore = await call('/api/v1/namespaces/default/configmaps/fv?fieldValidation=Ignore', {
    method: 'PUT',
    body: { ...body, data: { a: 'c' } },
  });
  t.is(ignore.code, 200, ignore.text);
  t.is(ignore.headers['warning'], undefined);
  t.false(ignore.text.includes('extra'));
  const strictPatch = await call('/api/v1/namespaces/default/configmaps/fv?fieldValidation=Strict', {
    method: 'PATCH',
    contentType: 'application/merge-patch+json',
    body: { spec: {} },
  });
  t.is(strictPatch.code, 422);
  t.regex(strictPatch.json<{ message: string }>().message, /strict decoding error: unknown field "spec"$/);
});
