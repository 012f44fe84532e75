import test from 'ava';
import { rawCall } from '../testing/raw-client.js';
import type { SimApiServer } from './api-server.js';
import { startApiServerWith } from './started-api-server.test-helper.js';
import { createCsr } from './x509.js';

// Enum, required and range rules of built-in kinds that their schemas do not state (builtin-validation.ts
// names the upstream validation each comes from): 422 Invalid with causes naming the field.

let sim: SimApiServer;
test.before(async () => {
  sim = await startApiServerWith(['default']);
});
test.after.always(async () => {
  await sim.stop();
});

interface Status {
  code: number;
  message: string;
  details: { causes: { reason: string; field: string; message: string }[] };
}

async function post(path: string, body: unknown): Promise<{ code: number; status: Status }> {
  const r = await rawCall(sim.url, sim.caPem, path, { token: sim.admin.token, method: 'POST', body });
  return { code: r.code, status: r.json<Status>() };
}

test('Service spec.type must be one of the four types', async (t) => {
  const r = await post('/api/v1/namespaces/default/services', {
    metadata: { name: 'svc' },
    spec: { type: 'Internal', ports: [{ port: 80 }] },
  });
  t.is(r.code, 422);
  t.is(
    r.status.message,
    'Service "svc" is invalid: spec.type: Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
  );
  t.is(r.status.details.causes[0]?.reason, 'FieldValueNotSupported');
  const ok = await post('/api/v1/namespaces/default/services', {
    metadata: { name: 'svc' },
    spec: { type: 'NodePort' },
  });
  t.is(ok.code, 201);
});

test('Node taints: effect required and from the enum, key a qualified name, one per key and effect', async (t) => {
  const r = await post('/api/v1/nodes', {
    metadata: { name: 'n1' },
    spec: {
      taints: [
        { key: 'os', value: 'Windows' },
        { key: 'os', effect: 'NoRun' },
        { key: 'a', effect: 'NoSchedule' },
        { key: 'a', effect: 'NoSchedule' },
      ],
    },
  });
  t.is(r.code, 422);
  t.deepEqual(
    r.status.details.causes.map((c) => `${c.field} ${c.reason}`),
    [
      'spec.taints[0].effect FieldValueRequired',
      'spec.taints[1].effect FieldValueNotSupported',
      'spec.taints[3] FieldValueDuplicate',
    ],
  );
  const ok = await post('/api/v1/nodes', {
    metadata: { name: 'n1' },
    spec: { taints: [{ key: 'os', value: 'Windows', effect: 'NoSchedule' }] },
  });
  t.is(ok.code, 201);
});

test('Lease durations must be positive and transitions not negative', async (t) => {
  const r = await post('/apis/coordination.k8s.io/v1/namespaces/default/leases', {
    metadata: { name: 'l' },
    spec: { leaseDurationSeconds: 0, leaseTransitions: -1 },
  });
  t.is(r.code, 422);
  t.is(
    r.status.message,
    'Lease.coordination.k8s.io "l" is invalid: [spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0, spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0]',
  );
});

test('CSR conditions: Approved only with status True, status from True/False/Unknown, one per type', async (t) => {
  const { csrPem } = await createCsr({ commonName: 'system:node:w', organizations: ['system:nodes'] });
  const base = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
  const created = await post(base, {
    metadata: { name: 'c1' },
    spec: {
      request: Buffer.from(csrPem).toString('base64'),
      signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
      usages: ['client auth'],
    },
  });
  t.is(created.code, 201);
  const put = (sub: string, conditions: unknown[]): ReturnType<typeof rawCall> =>
    rawCall(sim.url, sim.caPem, `${base}/c1/${sub}`, {
      token: sim.admin.token,
      method: 'PUT',
      body: { metadata: { name: 'c1' }, status: { conditions } },
    });
  const approvedFalse = await put('approval', [{ type: 'Approved', status: 'False' }]);
  t.is(approvedFalse.code, 422);
  t.regex(
    approvedFalse.json<Status>().message,
    /status.conditions\[0\].status: Unsupported value: "False": supported values: "True"/,
  );
  const dup = await put('status', [
    { type: 'Custom', status: 'Maybe' },
    { type: 'Custom', status: 'True' },
  ]);
  t.is(dup.code, 422);
  t.deepEqual(
    dup.json<Status>().details.causes.map((c) => `${c.field} ${c.reason}`),
    ['status.conditions[0].status FieldValueNotSupported', 'status.conditions[1].type FieldValueDuplicate'],
  );
  t.is((await put('approval', [{ type: 'Approved', status: 'True', reason: 'R' }])).code, 200);
});
