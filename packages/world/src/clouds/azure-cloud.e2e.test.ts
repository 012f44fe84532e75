import test, { type ExecutionContext } from 'ava';
import { azureProvider } from '@wmco/provider-azure';
import {
  CloudApiError,
  CloudNotConfiguredError,
  InstanceOutsideClusterNetworkError,
} from '@wmco/core/provider';
import { SimArm } from '@wmco/sim';
import { cloudCapabilities, type CloudCapabilities } from './cloud-capabilities.test-helper.js';
import { ROOT_CREDENTIALS, staticCloudContext } from '@wmco/operator';

const INFRA = 'sim-az-m3n4b';
const OWNER = `kubernetes.io_cluster.${INFRA}`;

async function world(
  t: ExecutionContext,
  secret?: Record<string, string>,
  requestTimeoutMs?: number,
): Promise<{ arm: SimArm; caps: CloudCapabilities }> {
  const arm = await SimArm.start({ resourceGroup: 'sim-az-rg', location: 'eastus' });
  t.teardown(() => arm.close());
  const s = arm.credentialsSecret();
  const ctx = staticCloudContext({
    credentials: ROOT_CREDENTIALS,
    infrastructureName: INFRA,
    platformStatus: arm.platformStatus(),
    caBundle: arm.caPem,
    secrets: [{ ...s, data: { ...s.data, ...secret } }],
    ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}),
  });
  // The control plane, tagged as the installer tags it: the cluster's virtual network is read from it.
  arm.addInstance({ privateIp: '10.0.0.10', name: `${INFRA}-master-0`, tags: { [OWNER]: 'owned' } });
  return { arm, caps: cloudCapabilities(azureProvider, ctx) };
}

const vnetId = (arm: SimArm, name: string): string =>
  `/subscriptions/${arm.state.subscriptionId}/resourceGroups/sim-az-rg/providers/Microsoft.Network/virtualNetworks/${name}`.toLowerCase();

test('ARM finds the VM behind an address with its instance view, tags it, and reads the tag back', async (t) => {
  const { arm, caps } = await world(t);
  arm.addInstance({ privateIp: '127.0.0.9', name: 'other' });
  const vm = arm.addInstance({ privateIp: '127.0.0.7', name: 'WIN-A', zone: '2', tags: { team: 'x' } });
  const found = await caps.identity.identify('127.0.0.7');
  t.like(found, {
    name: 'WIN-A',
    providerId: `azure://${arm.state.vmId(vm)}`,
    zone: 'eastus-2',
    privateIp: '127.0.0.7',
    privateDnsName: 'win-a',
    tags: { team: 'x' },
    network: vnetId(arm, 'sim-az-vnet'),
  });
  if (!found) return;
  t.is((await caps.tagging.ensureTag(found, 'check')).state, 'missing');
  const applied = await caps.tagging.ensureTag(found, 'apply');
  t.deepEqual(applied.tag, { key: OWNER, value: 'shared' });
  t.is(applied.state, 'applied');
  t.deepEqual(vm.tagRecord(), { [OWNER]: 'shared', team: 'x' });
  t.true(
    arm.faults.count('Microsoft.Compute/locations/operations/read') >= 1,
    'the Azure-AsyncOperation was polled',
  );
  t.is((await caps.identity.identify('127.0.0.7'))?.tags[OWNER], 'shared');
  t.deepEqual(await caps.tagging.removeTags(found, [applied.tag]), [OWNER]);
  t.deepEqual(vm.tagRecord(), { team: 'x' });
});

test('the same private IP in another virtual network is refused and not tagged; apply-owned tags owned', async (t) => {
  const { arm, caps } = await world(t);
  const peer = arm.addInstance({ privateIp: '127.0.0.7', name: 'peer-a', network: 'peer-vnet' });
  const error = await t.throwsAsync(caps.identity.identify('127.0.0.7'), {
    instanceOf: InstanceOutsideClusterNetworkError,
  });
  t.like(error.match, {
    instanceId: arm.state.vmId(peer),
    network: vnetId(arm, 'peer-vnet'),
    clusterNetwork: vnetId(arm, 'sim-az-vnet'),
  });
  const ours = arm.addInstance({ privateIp: '127.0.0.7', name: 'win-a' });
  const found = await caps.identity.identify('127.0.0.7');
  t.is(found?.name, 'win-a');
  if (!found) return;
  t.like(await caps.tagging.ensureTag(found, 'apply-owned'), { tag: { value: 'owned' }, state: 'applied' });
  t.deepEqual(ours.tagRecord(), { [OWNER]: 'owned' });
  t.deepEqual(peer.tagRecord(), {});
});

// Serial, so no other test of this file competes for the process while attempts are timed. The attempt
// timeout is the subject; what is asserted are events (a hang taken, an answer, a clear error), never how
// many attempts fit in a wall-clock window.
test.serial(
  'a request ARM never answers is abandoned after the request timeout and retried; then a clear error',
  async (t) => {
    // 3 s per attempt: a healthy attempt on a loaded machine fits in it with room to spare.
    const { arm, caps } = await world(t, undefined, 3000);
    arm.addInstance({ privateIp: '127.0.0.7', name: 'win-a' });
    const list = 'Microsoft.Compute/virtualMachines/read';
    // A first call pays the SDK's load, the token and the first TLS handshake outside the timed part.
    t.truthy(await caps.identity.identify('127.0.0.7'), 'warm-up');
    const before = arm.faults.count(list);
    arm.faults.inject('hang', { times: 1, operation: list });
    t.truthy(await caps.identity.identify('127.0.0.7'), 'one unanswered request is ridden out');
    // The hang took one list and an answer needed another.
    t.true(arm.faults.count(list) - before >= 2, 'the unanswered request was sent again');
    arm.faults.inject('hang', { times: 1000 });
    const hungBefore = arm.faults.count(list);
    const error = await t.throwsAsync(caps.identity.identify('127.0.0.7'));
    t.true(error instanceof CloudApiError);
    t.like(error, { cloudCode: 'ETIMEDOUT', kind: 'other' });
    t.regex(error.message, /no answer from 127\.0\.0\.1:\d+ within 3000 ms/);
    t.true(arm.faults.count(list) - hungBefore >= 2, 'abandoned attempts were retried');
  },
);

test('429 with Retry-After is retried; 403, 404 and a wrong client secret map to their kinds', async (t) => {
  const { arm, caps } = await world(t);
  arm.addInstance({ privateIp: '127.0.0.7', name: 'win-a' });
  arm.faults.inject('throttle', { times: 2, operation: 'Microsoft.Compute/virtualMachines/read' });
  const found = await caps.identity.identify('127.0.0.7');
  t.truthy(found, 'two 429s are ridden out');
  t.is(arm.faults.count('Microsoft.Compute/virtualMachines/read'), 3 + 1, 'list tried 3 times, then one get');
  if (!found) return;
  arm.faults.inject('unauthorized', { operation: 'Microsoft.Compute/virtualMachines/write' });
  const denied = await t.throwsAsync(caps.tagging.ensureTag(found, 'apply'));
  t.true(denied instanceof CloudApiError);
  t.like(denied, { kind: 'unauthorized', cloudCode: 'AuthorizationFailed' });
  arm.state.vms.clear();
  const gone = await t.throwsAsync(caps.tagging.ensureTag(found, 'apply'));
  t.like(gone, { kind: 'not-found', cloudCode: 'ResourceNotFound' });
  const wrong = await world(t, { azure_client_secret: 'not-the-secret' });
  const refused = await t.throwsAsync(wrong.caps.identity.identify('127.0.0.7'));
  t.like(refused, { kind: 'unauthorized', cloudCode: 'invalid_client' });
  t.false(refused?.message.includes('not-the-secret'));
});

test('no azure-credentials Secret: not configured', async (t) => {
  const arm = await SimArm.start();
  t.teardown(() => arm.close());
  const ctx = staticCloudContext({
    credentials: ROOT_CREDENTIALS,
    infrastructureName: INFRA,
    platformStatus: arm.platformStatus(),
    secrets: [],
  });
  const error = await t.throwsAsync(cloudCapabilities(azureProvider, ctx).identity.identify('127.0.0.7'));
  t.true(error instanceof CloudNotConfiguredError);
  t.regex(error?.message ?? '', /kube-system\/azure-credentials not found/);
});
