import test from 'ava';
import { rawCall } from '../testing/raw-client.js';
import { startSimCluster, type SimCluster } from './sim-cluster.js';

// Deletion lifecycles driven by the cluster controllers: namespace finalization and CRD termination (row 5).

let c: SimCluster;
test.before(async () => {
  c = await startSimCluster();
});
test.after.always(async () => {
  await c.stop();
});

const admin = (path: string, r: Parameters<typeof rawCall>[3] = {}): ReturnType<typeof rawCall> =>
  rawCall(c.server.url, c.server.caPem, path, { token: c.admin.token, ...r });

async function eventually<T>(what: string, fn: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test.serial(
  'namespace finalization waits for content with finalizers, then removes the namespace',
  async (t) => {
    await admin('/api/v1/namespaces', { method: 'POST', body: { metadata: { name: 'doomed' } } });
    await admin('/api/v1/namespaces/doomed/configmaps', {
      method: 'POST',
      body: { metadata: { name: 'held', finalizers: ['x/y'] } },
    });
    await admin('/api/v1/namespaces/doomed/configmaps', {
      method: 'POST',
      body: { metadata: { name: 'free' } },
    });
    const del = await admin('/api/v1/namespaces/doomed', { method: 'DELETE' });
    t.is(del.json<{ status: { phase: string } }>().status.phase, 'Terminating');
    t.is(
      (
        await admin('/api/v1/namespaces/doomed/configmaps', {
          method: 'POST',
          body: { metadata: { name: 'late' } },
        })
      ).code,
      403,
    );
    await eventually('free deleted', async () =>
      (await admin('/api/v1/namespaces/doomed/configmaps/free')).code === 404 ? true : undefined,
    );
    t.is((await admin('/api/v1/namespaces/doomed')).code, 200, 'held back by the finalizer');
    await admin('/api/v1/namespaces/doomed/configmaps/held', {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { metadata: { finalizers: null } },
    });
    await eventually('namespace gone', async () =>
      (await admin('/api/v1/namespaces/doomed')).code === 404 ? true : undefined,
    );
    t.pass();
  },
);

test.serial(
  'deleting a CRD waits for custom resources with finalizers; creates meanwhile are 405',
  async (t) => {
    const ms = '/apis/machine.openshift.io/v1beta1/namespaces/openshift-machine-api/machines';
    await admin(ms, {
      method: 'POST',
      body: { metadata: { name: 'm-held', finalizers: ['machine.machine.openshift.io'] }, spec: {} },
    });
    await admin('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/machines.machine.openshift.io', {
      method: 'DELETE',
    });
    const refused = await eventually('405', async () => {
      const r = await admin(ms, { method: 'POST', body: { metadata: { name: 'm-new' } } });
      return r.code === 405 ? r : undefined;
    });
    t.regex(
      refused.json<{ message: string }>().message,
      /create not allowed while custom resource definition is terminating/,
    );
    t.is(
      (await admin('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/machines.machine.openshift.io'))
        .code,
      200,
    );
    await admin(`${ms}/m-held`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { metadata: { finalizers: null } },
    });
    await eventually('CRD gone', async () =>
      (await admin('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/machines.machine.openshift.io'))
        .code === 404
        ? true
        : undefined,
    );
    t.is((await admin(ms)).code, 404, 'the resource is no longer served');
    t.deepEqual(c.errors, []);
  },
);

test.serial('updating a CRD schema changes pruning from then on', async (t) => {
  const crdPath =
    '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/servicemonitors.monitoring.coreos.com';
  const crd = (await admin(crdPath)).json<{
    spec: { versions: { schema: { openAPIV3Schema: { properties: { spec: Record<string, unknown> } } } }[] };
  }>();
  const smPath = '/apis/monitoring.coreos.com/v1/namespaces/default/servicemonitors';
  const before = await admin(smPath, {
    method: 'POST',
    body: { metadata: { name: 'sm1' }, spec: { jobLabel: 'a', newField: 1 } },
  });
  t.deepEqual(before.json<{ spec: unknown }>().spec, { jobLabel: 'a' });
  const version = crd.spec.versions[0]!;
  version.schema.openAPIV3Schema.properties.spec = {
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  };
  t.is((await admin(crdPath, { method: 'PUT', body: crd })).code, 200);
  const after = await admin(smPath, {
    method: 'POST',
    body: { metadata: { name: 'sm2' }, spec: { jobLabel: 'a', newField: 1 } },
  });
  t.deepEqual(after.json<{ spec: unknown }>().spec, { jobLabel: 'a', newField: 1 });
});
