import test from 'ava';
import { MACHINE_API_CRDS } from '../cluster/machine-api-crds.js';
import { rawCall } from '../testing/raw-client.js';
import type { SimApiServer } from './api-server.js';
import { startApiServerWith } from './started-api-server.test-helper.js';

// The scale subresource of a CRD with `subresources.scale` (MachineSet): autoscaling/v1 Scale, writes that
// touch only spec.replicas, resourceVersion preconditions, validation and discovery.

let sim: SimApiServer;
const NS = 'openshift-machine-api';
const MS = `/apis/machine.openshift.io/v1beta1/namespaces/${NS}/machinesets`;

test.before(async () => {
  sim = await startApiServerWith([NS]);
  const crdType = sim.registry.mustFind('apiextensions.k8s.io', 'v1', 'customresourcedefinitions');
  for (const crd of MACHINE_API_CRDS) sim.writer.create(crdType, undefined, crd);
  while (!sim.registry.find('machine.openshift.io', 'v1beta1', 'machinesets')) {
    await new Promise((r) => setTimeout(r, 10));
  }
});
test.after.always(async () => {
  await sim.stop();
});

const call = (path: string, r: Parameters<typeof rawCall>[3] = {}): ReturnType<typeof rawCall> =>
  rawCall(sim.url, sim.caPem, path, { token: sim.admin.token, ...r });

interface Scale {
  kind: string;
  apiVersion: string;
  metadata: { name: string; namespace: string; uid: string; resourceVersion: string };
  spec: { replicas: number };
  status: { replicas: number; selector?: string };
}
interface MachineSetBody {
  metadata: { resourceVersion: string; generation: number };
  spec: { replicas?: number; deletePolicy?: string };
  status?: { replicas?: number };
}

async function machineSet(name: string, spec: Record<string, unknown>): Promise<MachineSetBody> {
  const r = await call(MS, {
    method: 'POST',
    body: { apiVersion: 'machine.openshift.io/v1beta1', kind: 'MachineSet', metadata: { name }, spec },
  });
  if (r.code !== 201) throw new Error(r.text);
  const s = await call(`${MS}/${name}/status`, {
    method: 'PATCH',
    contentType: 'application/merge-patch+json',
    body: { status: { replicas: 1 } },
  });
  return s.json<MachineSetBody>();
}

const get = async (name: string): Promise<MachineSetBody> => (await call(`${MS}/${name}`)).json();

test('GET scale answers an autoscaling/v1 Scale from spec and status replicas', async (t) => {
  const ms = await machineSet('get-me', { replicas: 2, deletePolicy: 'Oldest' });
  const r = await call(`${MS}/get-me/scale`);
  t.is(r.code, 200, r.text);
  const s = r.json<Scale>();
  t.like(s, { kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 2 }, status: { replicas: 1 } });
  t.is(s.metadata.name, 'get-me');
  t.is(s.metadata.namespace, NS);
  t.is(s.metadata.resourceVersion, ms.metadata.resourceVersion);
  t.is(s.status.selector, undefined, 'MachineSet status has no labelSelector, so the selector is empty');
});

test('PATCH scale (kubectl scale) sets spec.replicas only and bumps generation', async (t) => {
  const before = await machineSet('patch-me', { replicas: 2, deletePolicy: 'Newest' });
  const r = await call(`${MS}/patch-me/scale`, {
    method: 'PATCH',
    contentType: 'application/merge-patch+json',
    body: { spec: { replicas: 5 } },
  });
  t.is(r.code, 200, r.text);
  const s = r.json<Scale>();
  t.is(s.spec.replicas, 5);
  t.is(s.status.replicas, 1, 'status untouched');
  const after = await get('patch-me');
  t.is(after.spec.replicas, 5);
  t.is(after.spec.deletePolicy, 'Newest');
  t.is(after.status?.replicas, 1);
  t.is(after.metadata.generation, before.metadata.generation + 1);
  t.is(s.metadata.resourceVersion, after.metadata.resourceVersion);
});

test('PUT scale with a stale resourceVersion is 409; with the current one it writes', async (t) => {
  await machineSet('put-me', { replicas: 1 });
  const s = (await call(`${MS}/put-me/scale`)).json<Scale>();
  await call(`${MS}/put-me/scale`, {
    method: 'PATCH',
    contentType: 'application/merge-patch+json',
    body: { spec: { replicas: 2 } },
  });
  const stale = await call(`${MS}/put-me/scale`, { method: 'PUT', body: { ...s, spec: { replicas: 3 } } });
  t.is(stale.code, 409);
  t.regex(
    stale.json<{ message: string }>().message,
    /^Operation cannot be fulfilled on machinesets\.machine\.openshift\.io "put-me": the object has been modified/,
  );
  const fresh = (await call(`${MS}/put-me/scale`)).json<Scale>();
  const ok = await call(`${MS}/put-me/scale`, { method: 'PUT', body: { ...fresh, spec: { replicas: 3 } } });
  t.is(ok.code, 200, ok.text);
  t.is((await get('put-me')).spec.replicas, 3);
  const noRv = await call(`${MS}/put-me/scale`, {
    method: 'PUT',
    body: {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'put-me' },
      spec: { replicas: 0 },
    },
  });
  t.is(noRv.code, 200, 'no resourceVersion: no precondition');
  t.is((await get('put-me')).spec.replicas, 0);
});

test('bad scale writes are refused and change nothing', async (t) => {
  await machineSet('bad', { replicas: 2 });
  const neg = await call(`${MS}/bad/scale`, {
    method: 'PATCH',
    contentType: 'application/merge-patch+json',
    body: { spec: { replicas: -1 } },
  });
  t.is(neg.code, 422);
  t.is(
    neg.json<{ message: string }>().message,
    'MachineSet.machine.openshift.io "bad" is invalid: .spec.replicas: Invalid value: -1: should be a non-negative integer',
  );
  const strategic = await call(`${MS}/bad/scale`, {
    method: 'PATCH',
    contentType: 'application/strategic-merge-patch+json',
    body: { spec: { replicas: 4 } },
  });
  t.is(strategic.code, 415);
  const otherName = await call(`${MS}/bad/scale`, {
    method: 'PUT',
    body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'other' }, spec: { replicas: 4 } },
  });
  t.is(otherName.code, 400);
  const wrongKind = await call(`${MS}/bad/scale`, {
    method: 'PUT',
    body: { apiVersion: 'machine.openshift.io/v1beta1', kind: 'MachineSet', spec: { replicas: 4 } },
  });
  t.is(wrongKind.code, 400);
  t.is((await call(`${MS}/missing/scale`)).code, 404);
  t.is((await call(`${MS}/bad/scale`, { method: 'DELETE' })).code, 405);
  t.is((await get('bad')).spec.replicas, 2);
});

test('a MachineSet without spec.replicas: GET is 500, a patch that sets none is 400, one that sets it writes', async (t) => {
  await machineSet('empty', {});
  const g = await call(`${MS}/empty/scale`);
  t.is(g.code, 500);
  t.regex(g.json<{ message: string }>().message, /the spec replicas field "\.spec\.replicas" does not exist/);
  const none = await call(`${MS}/empty/scale`, {
    method: 'PATCH',
    contentType: 'application/merge-patch+json',
    body: { metadata: { labels: { a: 'b' } } },
  });
  t.is(none.code, 400);
  const set = await call(`${MS}/empty/scale`, {
    method: 'PATCH',
    contentType: 'application/json-patch+json',
    body: [{ op: 'replace', path: '/spec/replicas', value: 1 }],
  });
  t.is(set.code, 200, set.text);
  t.is((await get('empty')).spec.replicas, 1);
});

test('dry-run scale writes validate and store nothing', async (t) => {
  await machineSet('dry', { replicas: 2 });
  const r = await call(`${MS}/dry/scale?dryRun=All`, {
    method: 'PATCH',
    contentType: 'application/merge-patch+json',
    body: { spec: { replicas: 7 } },
  });
  t.is(r.code, 200, r.text);
  t.is(r.json<Scale>().spec.replicas, 7);
  t.is((await get('dry')).spec.replicas, 2);
});

test('discovery lists machinesets/scale as autoscaling/v1 Scale (legacy and aggregated)', async (t) => {
  const legacy = (await call('/apis/machine.openshift.io/v1beta1')).json<{
    resources: { name: string; group?: string; version?: string; kind: string; verbs: string[] }[];
  }>();
  t.like(
    legacy.resources.find((r) => r.name === 'machinesets/scale'),
    { group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] },
  );
  t.is(
    legacy.resources.find((r) => r.name === 'machines/scale'),
    undefined,
    'Machines have no scale subresource',
  );
  const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
  const agg = (await call('/apis', { headers: { Accept: accept } })).json<{
    items: {
      metadata: { name?: string };
      versions: { resources: { resource: string; subresources: unknown[] }[] }[];
    }[];
  }>();
  const group = agg.items.find((g) => g.metadata.name === 'machine.openshift.io');
  const ms = group?.versions[0]?.resources.find((r) => r.resource === 'machinesets');
  t.deepEqual(
    ms?.subresources.find((s) => (s as { subresource: string }).subresource === 'scale'),
    {
      subresource: 'scale',
      responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      verbs: ['get', 'patch', 'update'],
    },
  );
});
