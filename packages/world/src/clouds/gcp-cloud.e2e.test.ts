import test, { type ExecutionContext } from 'ava';
import { gcpProvider } from '@wmco/provider-gcp';
import { CloudApiError, CloudNotConfiguredError } from '@wmco/core/provider';
import { SimGce } from '@wmco/sim';
import { cloudCapabilities, type CloudCapabilities } from './cloud-capabilities.test-helper.js';
import { ROOT_CREDENTIALS, staticCloudContext } from '@wmco/operator';

const INFRA = 'sim-gcp-q8w2e';
const OWNER = `kubernetes-io-cluster-${INFRA}`;

async function world(
  t: ExecutionContext,
  requestTimeoutMs?: number,
): Promise<{ gce: SimGce; caps: CloudCapabilities }> {
  const gce = await SimGce.start({ project: 'wmco-proj', region: 'us-central1' });
  t.teardown(() => gce.close());
  const ctx = staticCloudContext({
    credentials: ROOT_CREDENTIALS,
    infrastructureName: INFRA,
    platformStatus: gce.platformStatus(),
    caBundle: gce.caPem,
    secrets: [gce.credentialsSecret()],
    ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}),
  });
  // The control plane, labelled as the installer labels it: the cluster's network is read from it.
  gce.addInstance({ privateIp: '10.0.0.10', name: `${INFRA}-master-0`, tags: { [OWNER]: 'owned' } });
  return { gce, caps: cloudCapabilities(gcpProvider, ctx) };
}

const CLUSTER_NETWORK = 'projects/wmco-proj/global/networks/wmco-proj-network';

test('the compute SDK finds the instance by networkIP, labels it, and reads the label back', async (t) => {
  const { gce, caps } = await world(t);
  gce.addInstance({ privateIp: '127.0.0.9', name: 'other', zone: 'us-central1-b' });
  gce.addInstance({ privateIp: '127.0.0.7', name: 'elsewhere', zone: 'europe-west1-b' });
  const sim = gce.addInstance({
    privateIp: '127.0.0.7',
    name: 'win-a',
    zone: 'us-central1-c',
    tags: { team: 'x' },
  });
  const found = await caps.identity.identify('127.0.0.7');
  t.deepEqual(found, {
    instanceId: sim.id,
    name: 'win-a',
    providerId: 'gce://wmco-proj/us-central1-c/win-a',
    zone: 'us-central1-c',
    privateIp: '127.0.0.7',
    privateDnsName: 'win-a.us-central1-c.c.wmco-proj.internal',
    tags: { team: 'x' },
    network: CLUSTER_NETWORK,
  });
  if (!found) return;
  t.is((await caps.tagging.ensureTag(found, 'check')).state, 'missing');
  t.is(gce.faults.count('instances.setLabels'), 0, 'check mode writes nothing');
  const applied = await caps.tagging.ensureTag(found, 'apply');
  t.deepEqual(applied, { instanceId: sim.id, tag: { key: OWNER, value: 'shared' }, state: 'applied' });
  t.deepEqual(sim.tagRecord(), { [OWNER]: 'shared', team: 'x' }, 'other labels are kept');
  t.true(gce.faults.count('zoneOperations.wait') >= 1, 'the zonal operation was waited on');
  t.is((await caps.identity.identify('127.0.0.7'))?.tags[OWNER], 'shared');
  t.is((await caps.tagging.ensureTag(found, 'apply')).state, 'present');
});

test('a label changed by someone else between read and write is re-read and merged, never lost', async (t) => {
  const { gce, caps } = await world(t);
  const sim = gce.addInstance({ privateIp: '127.0.0.7', name: 'win-a', zone: 'us-central1-a' });
  const found = await caps.identity.identify('127.0.0.7');
  if (!found) return t.fail('not found');
  let raced = false;
  gce.state.beforeSetLabels = (i) => {
    if (raced) return;
    raced = true;
    i.setTags({ owner: 'someone-else' });
  };
  t.is((await caps.tagging.ensureTag(found, 'apply')).state, 'applied');
  t.is(gce.faults.count('instances.setLabels'), 2, 'the stale fingerprint was refused once');
  t.deepEqual(sim.tagRecord(), { [OWNER]: 'shared', owner: 'someone-else' });
});

test('the simulated API refuses a stale label fingerprint with 412 conditionNotMet', async (t) => {
  const { gce } = await world(t);
  const sim = gce.addInstance({ privateIp: '127.0.0.7', name: 'win-a', zone: 'us-central1-a' });
  const stale = gce.labelFingerprint(sim);
  sim.setTags({ a: 'b' });
  const res = await fetchJson(
    gce,
    `/compute/v1/projects/wmco-proj/zones/us-central1-a/instances/win-a/setLabels`,
    {
      labels: { c: 'd' },
      labelFingerprint: stale,
    },
  );
  t.is(res.status, 412);
  t.like(res.body, { error: { code: 412, errors: [{ reason: 'conditionNotMet' }] } });
  t.deepEqual(sim.tagRecord(), { a: 'b' });
});

test('removal takes back only the labels the operator added', async (t) => {
  const { gce, caps } = await world(t);
  const sim = gce.addInstance({
    privateIp: '127.0.0.7',
    name: 'win-a',
    zone: 'us-central1-a',
    tags: { keep: 'me' },
  });
  const found = await caps.identity.identify('127.0.0.7');
  if (!found) return t.fail('not found');
  const added = await caps.tagging.ensureTag(found, 'apply');
  t.deepEqual(await caps.tagging.removeTags(found, [added.tag, { key: 'keep', value: 'other' }]), [OWNER]);
  t.deepEqual(sim.tagRecord(), { keep: 'me' });
  t.deepEqual(await caps.tagging.removeTags(found, [added.tag]), [], 'nothing left to take back');
});

// Serial, so no other test of this file competes for the process while attempts are timed. The attempt
// timeout is the subject here; what is asserted are events (a hang taken, an answer, the client's own
// list of failed attempts), never how many attempts fit in a wall-clock window.
test.serial(
  'a request the compute API never answers is abandoned after the request timeout and retried; then a clear error',
  async (t) => {
    // 3 s per attempt: a healthy attempt on a loaded machine fits in it with room to spare.
    const { gce, caps } = await world(t, 3000);
    gce.addInstance({ privateIp: '127.0.0.7', name: 'win-a', zone: 'us-central1-a' });
    const list = 'instances.aggregatedList';
    // A first call pays the SDK's load, the token and the first TLS handshake outside the timed part.
    t.truthy(await caps.identity.identify('127.0.0.7'), 'warm-up');
    const before = gce.faults.count(list);
    gce.faults.inject('hang', { times: 1, operation: list });
    t.truthy(await caps.identity.identify('127.0.0.7'), 'one unanswered request is ridden out');
    // The hang took one request and an answer needed another: at least two arrived.
    t.true(gce.faults.count(list) - before >= 2, 'the unanswered request was abandoned and sent again');
    gce.faults.inject('hang', { times: 1000, operation: list });
    const error = await t.throwsAsync(caps.identity.identify('127.0.0.7'));
    t.true(error instanceof CloudApiError);
    t.like(error, { cloudCode: 'DEADLINE_EXCEEDED', kind: 'other' });
    t.regex(error.message, /aggregatedList did not respond within 3000 milliseconds/);
    // gax lists every failed attempt in its error: the client's own count, whether or not each attempt
    // reached the simulated server before its deadline.
    const attempts = error.message.split('{message: Deadline exceeded').length - 1;
    t.true(attempts >= 4, `${attempts} attempts: at least three retries`);
  },
);

test('429 is retried with backoff; persistent throttling, 403 and unknown instances map to their kinds', async (t) => {
  const { gce, caps } = await world(t);
  gce.addInstance({ privateIp: '127.0.0.7', name: 'win-a', zone: 'us-central1-a' });
  gce.faults.inject('throttle', { times: 2, operation: 'instances.aggregatedList' });
  const found = await caps.identity.identify('127.0.0.7');
  t.truthy(found, 'two 429s are ridden out');
  t.is(gce.faults.count('instances.aggregatedList'), 3);
  if (!found) return;
  gce.faults.inject('throttle', { times: 20, operation: 'instances.get' });
  const throttled = await t.throwsAsync(caps.tagging.ensureTag(found, 'apply'));
  t.true(throttled instanceof CloudApiError);
  t.like(throttled, { kind: 'throttled', cloudCode: 'RESOURCE_EXHAUSTED' });
  gce.faults.clear();
  gce.faults.inject('unauthorized', { operation: 'instances.setLabels' });
  const denied = await t.throwsAsync(caps.tagging.ensureTag(found, 'apply'));
  t.like(denied, { kind: 'unauthorized', cloudCode: 'PERMISSION_DENIED' });
  gce.state.instances.clear();
  const gone = await t.throwsAsync(caps.tagging.ensureTag(found, 'apply'));
  t.like(gone, { kind: 'not-found', cloudCode: 'NOT_FOUND' });
  t.is(await caps.identity.identify('127.0.0.7'), undefined);
});

test('a key the token endpoint does not accept is unauthorized; no Secret is not configured', async (t) => {
  const { gce } = await world(t);
  const other = await SimGce.start({ project: 'wmco-proj' });
  t.teardown(() => other.close());
  const wrongKey = { ...gce.serviceAccountKey, private_key: other.serviceAccountKey.private_key };
  const ctx = staticCloudContext({
    credentials: ROOT_CREDENTIALS,
    infrastructureName: INFRA,
    platformStatus: gce.platformStatus(),
    caBundle: gce.caPem,
    secrets: [{ ...gce.credentialsSecret(), data: { 'service_account.json': JSON.stringify(wrongKey) } }],
  });
  const error = await t.throwsAsync(cloudCapabilities(gcpProvider, ctx).identity.identify('127.0.0.7'));
  t.like(error, { kind: 'unauthorized' });
  t.false(error?.message.includes('PRIVATE KEY'));
  const none = staticCloudContext({
    credentials: ROOT_CREDENTIALS,
    infrastructureName: INFRA,
    platformStatus: gce.platformStatus(),
    secrets: [],
  });
  const missing = await t.throwsAsync(cloudCapabilities(gcpProvider, none).identity.identify('127.0.0.7'));
  t.true(missing instanceof CloudNotConfiguredError);
  const bad = staticCloudContext({
    credentials: ROOT_CREDENTIALS,
    infrastructureName: INFRA,
    platformStatus: gce.platformStatus(),
    secrets: [{ ...gce.credentialsSecret(), data: { 'service_account.json': '{"type":"user"}' } }],
  });
  const malformed = await t.throwsAsync(cloudCapabilities(gcpProvider, bad).identity.identify('127.0.0.7'));
  t.true(malformed instanceof CloudNotConfiguredError);
  t.regex(malformed?.message ?? '', /not a service-account key/);
});

test('firewall rules: which of the kubelet, windows_exporter and VXLAN ports the nodes reach', async (t) => {
  const { gce, caps } = await world(t);
  gce.addFirewall({
    name: 'kubelet',
    sourceTags: [`${INFRA}-worker`],
    targetTags: ['windows'],
    allowed: [{ IPProtocol: 'tcp', ports: ['10250'] }],
  });
  gce.addFirewall({
    name: 'metrics-elsewhere',
    sourceTags: [`${INFRA}-worker`],
    targetTags: ['linux'],
    allowed: [{ IPProtocol: 'tcp', ports: ['9100-9200'] }],
  });
  gce.addFirewall({
    name: 'vxlan',
    sourceRanges: ['10.0.0.0/16'],
    allowed: [{ IPProtocol: 'udp', ports: ['4789'] }],
  });
  gce.addFirewall({
    name: 'off',
    disabled: true,
    sourceRanges: ['0.0.0.0/0'],
    allowed: [{ IPProtocol: 'all' }],
  });
  gce.addInstance({ privateIp: '127.0.0.7', name: 'win-a', zone: 'us-central1-a', groups: ['windows'] });
  const found = await caps.identity.identify('127.0.0.7');
  if (!found || !caps.firewall) return t.fail('no instance or no FirewallFacts');
  const facts = await caps.firewall.inspect(found, 4789);
  t.deepEqual(
    facts.map((f) => [f.purpose, f.allowed]),
    [
      ['kubelet', true],
      ['windows_exporter', false],
      ['vxlan', true],
    ],
  );
  t.regex(facts[0]?.detail ?? '', /kubelet from nodes tagged/);
});

async function fetchJson(
  gce: SimGce,
  path: string,
  body: unknown,
): Promise<{ status: number; body: unknown }> {
  const { request } = await import('node:https');
  const token = gce.accessToken();
  return new Promise((resolve, reject) => {
    const req = request(
      `${gce.url}${path}`,
      {
        method: 'POST',
        ca: gce.caPem,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
