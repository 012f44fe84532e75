import test from 'ava';
import { rawCall } from '../testing/raw-client.js';
import type { SimApiServer } from './api-server.js';
import { startApiServerWith } from './started-api-server.test-helper.js';

// Event namespace rules (ValidateEventCreate, pkg/apis/core/validation/events.go): an event about a
// cluster-scoped object lives in `default`, one about a namespaced object in that object's namespace.

let sim: SimApiServer;
test.before(async () => {
  sim = await startApiServerWith(['default', 'kube-system', 'wmco']);
});
test.after.always(async () => {
  await sim.stop();
});

const post = (path: string, body: unknown): ReturnType<typeof rawCall> =>
  rawCall(sim.url, sim.caPem, path, { token: sim.admin.token, method: 'POST', body });

interface Status {
  message: string;
  reason: string;
  details: { causes: { field: string; reason: string; message: string }[] };
}

const nodeRef = { kind: 'Node', name: 'win-1', uid: 'u1' };
const reporting = {
  reportingComponent: 'wmco',
  reportingInstance: 'wmco-1',
  action: 'Configure',
  eventTime: '2026-11-27T09:00:00.000000Z',
};

test('core/v1: an event about a Node outside default is 422 on involvedObject.namespace', async (t) => {
  const r = await post('/api/v1/namespaces/wmco/events', {
    metadata: { name: 'node-ev' },
    involvedObject: nodeRef,
    reason: 'Joined',
    message: 'x',
    type: 'Normal',
  });
  t.is(r.code, 422);
  const s = r.json<Status>();
  t.is(s.reason, 'Invalid');
  t.is(
    s.message,
    'Event "node-ev" is invalid: involvedObject.namespace: Invalid value: "": does not match event.namespace',
  );
  t.like(s.details.causes[0], { field: 'involvedObject.namespace', reason: 'FieldValueInvalid' });
  const ok = await post('/api/v1/namespaces/default/events', {
    metadata: { name: 'node-ev' },
    involvedObject: nodeRef,
    reason: 'Joined',
  });
  t.is(ok.code, 201, ok.text);
});

test('core/v1: a namespaced involvedObject must be in the event namespace', async (t) => {
  const r = await post('/api/v1/namespaces/default/events', {
    metadata: { name: 'pod-ev' },
    involvedObject: { kind: 'Pod', name: 'p', namespace: 'wmco' },
    reason: 'X',
  });
  t.is(r.code, 422);
  t.regex(
    r.json<Status>().message,
    /involvedObject.namespace: Invalid value: "wmco": does not match event.namespace/,
  );
  const ok = await post('/api/v1/namespaces/wmco/events', {
    metadata: { name: 'pod-ev' },
    involvedObject: { kind: 'Pod', name: 'p', namespace: 'wmco' },
    reason: 'X',
  });
  t.is(ok.code, 201, ok.text);
});

test('core/v1 with eventTime: cluster-scoped subjects in default or kube-system, reporting fields required', async (t) => {
  const inSystem = await post('/api/v1/namespaces/kube-system/events', {
    metadata: { name: 'new-ev' },
    involvedObject: nodeRef,
    reason: 'Joined',
    ...reporting,
  });
  t.is(inSystem.code, 201, inSystem.text);
  const missing = await post('/api/v1/namespaces/wmco/events', {
    metadata: { name: 'new-ev' },
    involvedObject: nodeRef,
    eventTime: reporting.eventTime,
  });
  t.is(missing.code, 422);
  t.deepEqual(
    missing.json<Status>().details.causes.map((c) => `${c.field} ${c.reason}`),
    [
      'involvedObject.namespace FieldValueInvalid',
      'reportingController FieldValueRequired',
      'reportingController FieldValueInvalid',
      'reportingController FieldValueInvalid',
      'reportingInstance FieldValueRequired',
      'action FieldValueRequired',
      'reason FieldValueRequired',
    ],
  );
});

test('events.k8s.io/v1: regarding a Node needs default; type, eventTime and deprecated fields are checked', async (t) => {
  const base = {
    reportingController: 'wmco.openshift.io/operator',
    reportingInstance: 'wmco-1',
    action: 'Configure',
    reason: 'Joined',
    eventTime: '2026-11-27T09:00:00.000000Z',
    type: 'Normal',
    regarding: nodeRef,
  };
  const wrongNs = await post('/apis/events.k8s.io/v1/namespaces/wmco/events', {
    metadata: { name: 'e1' },
    ...base,
  });
  t.is(wrongNs.code, 422);
  t.is(wrongNs.json<Status>().details.causes[0]?.field, 'involvedObject.namespace');
  const ok = await post('/apis/events.k8s.io/v1/namespaces/default/events', {
    metadata: { name: 'e1' },
    ...base,
  });
  t.is(ok.code, 201, ok.text);
  const strict = await post('/apis/events.k8s.io/v1/namespaces/default/events', {
    metadata: { name: 'e2' },
    ...base,
    type: 'Info',
    deprecatedCount: 3,
  });
  t.is(strict.code, 422);
  t.deepEqual(
    strict.json<Status>().details.causes.map((c) => `${c.field}: ${c.message}`),
    ['type: Invalid value: "": has invalid value: Info', 'count: Invalid value: "": needs to be unset'],
  );
});
