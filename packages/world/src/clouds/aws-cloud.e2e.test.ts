import test from 'ava';
import { awsProvider } from '@wmco/provider-aws';
import {
  CloudApiError,
  CloudNotConfiguredError,
  InstanceOutsideClusterNetworkError,
} from '@wmco/core/provider';
import { SimEc2 } from '@wmco/sim';
import { cloudCapabilities } from './cloud-capabilities.test-helper.js';
import { ROOT_CREDENTIALS, staticCloudContext } from '@wmco/operator';

const INFRA = 'sim-aws-x7k2p';
const OWNER = `kubernetes.io/cluster/${INFRA}`;

async function world(
  t: { teardown(fn: () => Promise<void>): void },
  requestTimeoutMs?: number,
): Promise<{
  ec2: SimEc2;
  caps: ReturnType<typeof cloudCapabilities>;
}> {
  const ec2 = await SimEc2.start({ region: 'us-east-2' });
  t.teardown(() => ec2.close());
  const ctx = staticCloudContext({
    credentials: ROOT_CREDENTIALS,
    infrastructureName: INFRA,
    platformStatus: ec2.platformStatus(),
    caBundle: ec2.caPem,
    secrets: [ec2.credentialsSecret()],
    ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}),
  });
  // The control plane, tagged as the installer tags it: the cluster's VPC is read from it.
  ec2.addInstance({ privateIp: '10.0.0.10', name: 'master-0', tags: { [OWNER]: 'owned' } });
  return { ec2, caps: cloudCapabilities(awsProvider, ctx) };
}

test('the EC2 SDK finds the instance behind an address, tags it, and reads the tag back', async (t) => {
  const { ec2, caps } = await world(t);
  ec2.addInstance({ privateIp: '127.0.0.9', name: 'other' });
  const sim = ec2.addInstance({
    privateIp: '127.0.0.7',
    name: 'win-a',
    zone: 'us-east-2b',
    tags: { Name: 'win-a' },
  });
  const found = await caps.identity.identify('127.0.0.7');
  t.like(found, {
    instanceId: sim.id,
    providerId: `aws:///us-east-2b/${sim.id}`,
    zone: 'us-east-2b',
    privateIp: '127.0.0.7',
    privateDnsName: 'ip-127-0-0-7.us-east-2.compute.internal',
    tags: { Name: 'win-a' },
    network: ec2.state.clusterVpcId,
  });
  if (!found) return;
  t.is((await caps.tagging.ensureTag(found, 'check')).state, 'missing');
  t.false(sim.tags.has(OWNER), 'check mode must not tag');
  const applied = await caps.tagging.ensureTag(found, 'apply');
  t.deepEqual(applied, { instanceId: sim.id, tag: { key: OWNER, value: 'shared' }, state: 'applied' });
  t.is(sim.tags.get(OWNER), 'shared', 'a BYOH instance is tagged shared: destroy leaves it');
  const again = await caps.identity.identify('127.0.0.7');
  t.is(again?.tags[OWNER], 'shared', 'the tag reads back through DescribeInstances');
  t.is((await caps.tagging.ensureTag(found, 'apply')).state, 'present');
});

test('removal takes back only the tags the operator added, and leaves a user-set value alone', async (t) => {
  const { ec2, caps } = await world(t);
  const mine = ec2.addInstance({ privateIp: '127.0.0.7', name: 'a' });
  const theirs = ec2.addInstance({
    privateIp: '127.0.0.8',
    name: 'b',
    tags: { [OWNER]: 'shared', team: 'x' },
  });
  const a = await caps.identity.identify('127.0.0.7');
  const b = await caps.identity.identify('127.0.0.8');
  if (!a || !b) return t.fail('instances not found');
  const added = await caps.tagging.ensureTag(a, 'apply');
  const kept = await caps.tagging.ensureTag(b, 'apply-owned');
  t.like(
    kept,
    { state: 'present', tag: { value: 'shared' } },
    'a shared tag counts and is never raised to owned',
  );
  t.deepEqual(await caps.tagging.removeTags(a, [added.tag]), [OWNER]);
  t.false(mine.tags.has(OWNER));
  // The caller passes back only what it applied; for b that is nothing, and a wrong value is not removed.
  t.deepEqual(await caps.tagging.removeTags(b, []), []);
  t.deepEqual(await caps.tagging.removeTags(b, [{ key: OWNER, value: 'owned' }]), []);
  t.deepEqual(theirs.tagRecord(), { [OWNER]: 'shared', team: 'x' });
});

test('an unknown address is undefined; a vanished instance is a not-found CloudApiError', async (t) => {
  const { ec2, caps } = await world(t);
  t.is(await caps.identity.identify('127.0.0.99'), undefined);
  const sim = ec2.addInstance({ privateIp: '127.0.0.7', name: 'a' });
  const found = await caps.identity.identify('127.0.0.7');
  if (!found) return t.fail('not found');
  ec2.state.instances.delete(sim.id);
  const error = await t.throwsAsync(caps.tagging.ensureTag(found, 'apply'));
  t.true(error instanceof CloudApiError);
  t.like(error, { cloudCode: 'InvalidInstanceID.NotFound', kind: 'not-found' });
});

test('the same private IP in another VPC is refused, never tagged; in both, the cluster VPC one is the host', async (t) => {
  const { ec2, caps } = await world(t);
  const peerVpc = ec2.state.addVpc();
  const peer = ec2.addInstance({ privateIp: '127.0.0.7', name: 'peer', network: peerVpc });
  const error = await t.throwsAsync(caps.identity.identify('127.0.0.7'), {
    instanceOf: InstanceOutsideClusterNetworkError,
  });
  t.is(
    error.message,
    `aws: instance ${peer.id} has private IP 127.0.0.7 but is in network ${peerVpc}, ` +
      `not the cluster's network ${ec2.state.clusterVpcId}`,
  );
  t.like(error.match, { instanceId: peer.id, network: peerVpc, clusterNetwork: ec2.state.clusterVpcId });
  const ours = ec2.addInstance({ privateIp: '127.0.0.7', name: 'win' });
  t.is((await caps.identity.identify('127.0.0.7'))?.instanceId, ours.id);
  t.is(ec2.faults.count('CreateTags'), 0);
  t.false(peer.tags.has(OWNER));
});

test('apply-owned tags owned; an instance the installer or the Machine API tagged owned stays owned', async (t) => {
  const { ec2, caps } = await world(t);
  const byoh = ec2.addInstance({ privateIp: '127.0.0.7', name: 'a' });
  const machine = ec2.addInstance({ privateIp: '127.0.0.8', name: 'm', tags: { [OWNER]: 'owned' } });
  const a = await caps.identity.identify('127.0.0.7');
  const m = await caps.identity.identify('127.0.0.8');
  if (!a || !m) return t.fail('not found');
  t.like(await caps.tagging.ensureTag(a, 'apply-owned'), { tag: { value: 'owned' }, state: 'applied' });
  t.is(byoh.tags.get(OWNER), 'owned');
  t.deepEqual(await caps.tagging.ensureTag(m, 'apply'), {
    instanceId: machine.id,
    tag: { key: OWNER, value: 'owned' },
    state: 'present',
  });
  t.is(machine.tags.get(OWNER), 'owned', 'not re-tagged shared');
});

test('no owned instance to read the cluster VPC from: not configured, nothing tagged', async (t) => {
  const { ec2, caps } = await world(t);
  for (const [id, i] of ec2.state.instances) if (i.tags.get(OWNER) === 'owned') ec2.state.terminate(id);
  ec2.addInstance({ privateIp: '127.0.0.7', name: 'a' });
  const error = await t.throwsAsync(caps.identity.identify('127.0.0.7'), {
    instanceOf: CloudNotConfiguredError,
  });
  t.regex(
    error.message,
    /cannot tell the cluster's VPC: no instance in a VPC is tagged kubernetes\.io\/cluster\//,
  );
});

test('RequestLimitExceeded is retried by the SDK; a persistent throttle surfaces as throttled', async (t) => {
  const { ec2, caps } = await world(t);
  ec2.addInstance({ privateIp: '127.0.0.7', name: 'a' });
  ec2.faults.inject('throttle', { times: 2, operation: 'DescribeInstances' });
  t.truthy(await caps.identity.identify('127.0.0.7'), 'two throttles are ridden out');
  t.is(ec2.faults.count('DescribeInstances'), 3 + 1, 'three for the address, one for the cluster VPC');
  ec2.faults.inject('throttle', { times: 50 });
  const error = await t.throwsAsync(caps.identity.identify('127.0.0.7'));
  t.like(error, { cloudCode: 'RequestLimitExceeded', kind: 'throttled' });
  t.is(ec2.faults.count('DescribeInstances'), 4 + 5, 'five attempts in all (AWS_MAX_ATTEMPTS)');
});

// Serial, so no other test of this file competes for the process while attempts are timed. The attempt
// timeout is the subject; what is asserted are events (a hang taken, an answer, a clear error), never how
// many attempts fit in a wall-clock window. The number of attempts is the throttle test's subject.
test.serial(
  'a request EC2 never answers is abandoned after the request timeout and retried; then a clear error',
  async (t) => {
    // 3 s per attempt: a healthy attempt on a loaded machine fits in it with room to spare.
    const { ec2, caps } = await world(t, 3000);
    ec2.addInstance({ privateIp: '127.0.0.7', name: 'a' });
    // A first call pays the SDK's load and the first TLS handshake outside the timed part.
    t.truthy(await caps.identity.identify('127.0.0.7'), 'warm-up');
    const before = ec2.faults.count('DescribeInstances');
    ec2.faults.inject('hang', { times: 1, operation: 'DescribeInstances' });
    t.truthy(await caps.identity.identify('127.0.0.7'), 'one unanswered request is ridden out');
    // The hang took one request and an answer needed another.
    t.true(ec2.faults.count('DescribeInstances') - before >= 2, 'the unanswered request was sent again');
    ec2.faults.inject('hang', { times: 1000 });
    const hungBefore = ec2.faults.count('DescribeInstances');
    const error = await t.throwsAsync(caps.identity.identify('127.0.0.7'));
    t.true(error instanceof CloudApiError);
    t.like(error, { cloudCode: 'TimeoutError', kind: 'other' });
    // The request timer or, for a body stalled after the headers, the socket timer: both the request
    // timeout, not EC2's 15-minute socket default (without a deadline this call would never end).
    t.regex(error.message, /3000 ms/);
    t.true(ec2.faults.count('DescribeInstances') - hungBefore >= 2, 'abandoned attempts were retried');
  },
);

test('wrong credentials and a missing IAM permission are unauthorized, with no secret in the message', async (t) => {
  const { ec2 } = await world(t);
  ec2.addInstance({ privateIp: '127.0.0.7', name: 'a' });
  const wrong = staticCloudContext({
    credentials: ROOT_CREDENTIALS,
    infrastructureName: INFRA,
    platformStatus: ec2.platformStatus(),
    caBundle: ec2.caPem,
    secrets: [
      {
        ...ec2.credentialsSecret(),
        data: { aws_access_key_id: ec2.credentials.accessKeyId, aws_secret_access_key: 'not-the-secret' },
      },
    ],
  });
  const error = await t.throwsAsync(cloudCapabilities(awsProvider, wrong).identity.identify('127.0.0.7'));
  t.like(error, { cloudCode: 'AuthFailure', kind: 'unauthorized' });
  t.false(error?.message.includes('not-the-secret'));
  const { caps, ec2: ec2b } = await world(t);
  const inst = ec2b.addInstance({ privateIp: '127.0.0.7', name: 'a' });
  const found = await caps.identity.identify('127.0.0.7');
  if (!found) return t.fail('not found');
  ec2b.faults.inject('unauthorized', { operation: 'CreateTags' });
  const denied = await t.throwsAsync(caps.tagging.ensureTag(found, 'apply'));
  t.like(denied, { cloudCode: 'UnauthorizedOperation', kind: 'unauthorized' });
  t.is(inst.tags.size, 0);
  t.false(denied?.message.includes(ec2b.credentials.secretAccessKey));
});

test('no credentials Secret: every capability reports not configured', async (t) => {
  const ec2 = await SimEc2.start();
  t.teardown(() => ec2.close());
  const ctx = staticCloudContext({
    credentials: ROOT_CREDENTIALS,
    infrastructureName: INFRA,
    platformStatus: ec2.platformStatus(),
    secrets: [],
  });
  const error = await t.throwsAsync(cloudCapabilities(awsProvider, ctx).identity.identify('127.0.0.7'));
  t.true(error instanceof CloudNotConfiguredError);
  t.regex(error?.message ?? '', /kube-system\/aws-creds not found/);
});

test('security groups: the kubelet, windows_exporter and VXLAN ports are reported as reached or not', async (t) => {
  const { ec2, caps } = await world(t);
  ec2.addSecurityGroup({
    groupId: 'sg-node',
    groupName: `${INFRA}-node`,
    tags: { [OWNER]: 'owned' },
    ingress: [],
  });
  ec2.addSecurityGroup({ groupId: 'sg-other', groupName: 'other', tags: {}, ingress: [] });
  ec2.addSecurityGroup({
    groupId: 'sg-win',
    groupName: 'windows',
    tags: {},
    ingress: [
      { protocol: 'tcp', fromPort: 10250, toPort: 10250, sourceGroups: ['sg-node'] },
      { protocol: 'tcp', fromPort: 9182, toPort: 9182, sourceGroups: ['sg-other'] },
      { protocol: 'udp', fromPort: 4789, toPort: 4789, cidrs: ['10.0.0.0/16'] },
    ],
  });
  ec2.addInstance({ privateIp: '127.0.0.7', name: 'a', groups: ['sg-win'] });
  const found = await caps.identity.identify('127.0.0.7');
  if (!found || !caps.firewall) return t.fail('no instance or no FirewallFacts');
  const facts = await caps.firewall.inspect(found, 4789);
  t.deepEqual(
    facts.map((f) => [f.purpose, f.port, f.allowed]),
    [
      ['kubelet', 10250, true],
      ['windows_exporter', 9182, false],
      ['vxlan', 4789, true],
    ],
  );
  t.regex(facts[0]?.detail ?? '', /sg-node/);
  t.is((await caps.firewall.inspect(found, 9898))[2]?.allowed, false, 'a custom VXLAN port is not open');
});
