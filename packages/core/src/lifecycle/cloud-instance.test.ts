import test from 'ava';
import { MemoryEventRecorder } from '../kube/event-recorder.js';
import { silentLogger } from '../kube/logger.js';
import type { CloudInstance, InstanceIdentity } from '../provider/capabilities/instance-identity.js';
import type {
  CloudTag,
  InstanceTagging,
  TagMode,
  TagResult,
} from '../provider/capabilities/instance-tagging.js';
import { CloudApiError, CloudNotConfiguredError } from '../provider/errors.js';
import { NodeNameError } from '../identity/name-decision.js';
import { CloudAnnotations, CloudJoin, appliedTagsOf } from './cloud-instance.js';

const OWNED: CloudTag = { key: 'kubernetes.io/cluster/infra-1', value: 'owned' };

/** An in-memory cloud: instances by private IP, with tags; failures queued per call. */
class FakeCloud implements InstanceIdentity, InstanceTagging {
  readonly instances = new Map<string, CloudInstance & { tags: Record<string, string> }>();
  readonly failures: Error[] = [];
  calls = 0;

  add(ip: string, dnsName: string, tags: Record<string, string> = {}): void {
    this.instances.set(ip, {
      instanceId: `i-${ip}`,
      name: `i-${ip}`,
      providerId: `aws:///z/i-${ip}`,
      zone: 'z',
      privateIp: ip,
      privateDnsName: dnsName,
      tags,
    });
  }

  private next(): void {
    this.calls++;
    const f = this.failures.shift();
    if (f) throw f;
  }

  identify(address: string): Promise<CloudInstance | undefined> {
    this.next();
    return Promise.resolve(this.instances.get(address));
  }

  ownershipTag(): CloudTag {
    return OWNED;
  }

  ensureTag(instance: CloudInstance, mode: TagMode): Promise<TagResult> {
    this.next();
    const tags = this.instances.get(instance.privateIp)!.tags;
    const base = { instanceId: instance.instanceId, tag: OWNED };
    if (tags[OWNED.key] !== undefined) return Promise.resolve({ ...base, state: 'present' });
    if (mode === 'check') return Promise.resolve({ ...base, state: 'missing' });
    tags[OWNED.key] = OWNED.value;
    return Promise.resolve({ ...base, state: 'applied' });
  }

  removeTags(instance: CloudInstance, remove: readonly CloudTag[]): Promise<readonly string[]> {
    this.next();
    const tags = this.instances.get(instance.privateIp)!.tags;
    const gone = remove.filter((t) => tags[t.key] === t.value).map((t) => t.key);
    gone.forEach((k) => delete tags[k]);
    return Promise.resolve(gone);
  }
}

function setup(mode: TagMode = 'apply'): { cloud: FakeCloud; events: MemoryEventRecorder; join: CloudJoin } {
  const cloud = new FakeCloud();
  const events = new MemoryEventRecorder();
  const join = new CloudJoin({
    identity: cloud,
    tagging: cloud,
    mode,
    events,
    logger: silentLogger,
    namespace: 'ns',
    backoffMs: 1,
  });
  return { cloud, events, join };
}

const throttled = (): CloudApiError =>
  new CloudApiError('aws', {
    operation: 'DescribeInstances',
    cloudCode: 'RequestLimitExceeded',
    kind: 'throttled',
    detail: 'slow down',
  });

test('the cloud name must be the node name the host reports', async (t) => {
  const { cloud, join } = setup();
  cloud.add('10.0.0.5', 'ip-10-0-0-5.ec2.internal');
  const facts = await join.verify('10.0.0.5', 'ip-10-0-0-5.ec2.internal');
  t.is(facts?.instance.instanceId, 'i-10.0.0.5');
  const err = await t.throwsAsync(join.verify('10.0.0.5', 'win-evil'), { instanceOf: NodeNameError });
  t.regex(err.message, /cloud names instance i-10\.0\.0\.5 ip-10-0-0-5\.ec2\.internal/);
});

test('the cloud name is compared as the kubelet registers names (lower case)', async (t) => {
  const { cloud, join } = setup();
  cloud.add('10.0.0.6', 'WIN-VM-1');
  t.truthy(await join.verify('10.0.0.6', 'win-vm-1'));
});

test('apply mode tags the instance and records only what it applied; removal takes back only that', async (t) => {
  const { cloud, join } = setup('apply');
  cloud.add('10.0.0.7', 'a', { Name: 'a', team: 'x' });
  const facts = (await join.verify('10.0.0.7', 'a'))!;
  const notes = await join.tag(facts, undefined);
  t.deepEqual(appliedTagsOf(notes[CloudAnnotations.appliedTags]), [OWNED]);
  t.is(notes[CloudAnnotations.instanceId], 'i-10.0.0.7');
  // A second join finds it present: nothing new recorded, the earlier record stays.
  t.false(CloudAnnotations.appliedTags in (await join.tag(facts, notes[CloudAnnotations.appliedTags])));
  t.deepEqual(await join.untag('10.0.0.7', notes[CloudAnnotations.appliedTags]), [OWNED.key]);
  t.deepEqual(cloud.instances.get('10.0.0.7')!.tags, { Name: 'a', team: 'x' });
});

test('a tag someone else set is never recorded, so removal leaves it', async (t) => {
  const { cloud, join } = setup('apply');
  cloud.add('10.0.0.8', 'b', { [OWNED.key]: 'owned' });
  const notes = await join.tag((await join.verify('10.0.0.8', 'b'))!, undefined);
  t.false(CloudAnnotations.appliedTags in notes);
  t.deepEqual(await join.untag('10.0.0.8', notes[CloudAnnotations.appliedTags]), []);
  t.is(cloud.instances.get('10.0.0.8')!.tags[OWNED.key], 'owned');
});

test('check mode never writes; a missing tag is a warning event', async (t) => {
  const { cloud, events, join } = setup('check');
  cloud.add('10.0.0.9', 'c');
  const notes = await join.tag((await join.verify('10.0.0.9', 'c'))!, undefined);
  t.false(CloudAnnotations.appliedTags in notes);
  t.deepEqual(cloud.instances.get('10.0.0.9')!.tags, {});
  t.deepEqual(
    events.events.map((e) => [e.type, e.reason]),
    [['Warning', 'CloudTagMissing']],
  );
});

test('no credentials: one warning event for any number of joins, and the join goes on', async (t) => {
  const { cloud, events, join } = setup();
  for (let i = 0; i < 3; i++)
    cloud.failures.push(new CloudNotConfiguredError('aws', 'no Secret kube-system/aws-creds'));
  for (const ip of ['10.0.1.1', '10.0.1.2', '10.0.1.3']) t.is(await join.verify(ip, 'x'), undefined);
  t.deepEqual(
    events.events.map((e) => e.reason),
    ['CloudNotConfigured'],
  );
});

test('throttling is retried and never fails the join', async (t) => {
  const { cloud, events, join } = setup();
  cloud.add('10.0.2.1', 'd');
  cloud.failures.push(throttled(), throttled());
  t.truthy(await join.verify('10.0.2.1', 'd'), 'third attempt succeeds');
  t.is(cloud.calls, 3);
  cloud.failures.push(throttled(), throttled(), throttled());
  t.is(await join.verify('10.0.2.1', 'd'), undefined, 'still throttled: the join goes on');
  t.deepEqual(
    events.events.map((e) => e.reason),
    ['CloudUnavailable'],
  );
});

test('unauthorized is not retried; an address the cloud does not know is warned about', async (t) => {
  const { cloud, events, join } = setup();
  cloud.failures.push(
    new CloudApiError('aws', { operation: 'x', cloudCode: 'AuthFailure', kind: 'unauthorized', detail: '' }),
  );
  t.is(await join.verify('10.0.3.1', 'e'), undefined);
  t.is(cloud.calls, 1);
  t.is(await join.verify('10.0.3.1', 'e'), undefined);
  t.deepEqual(
    events.events.map((e) => e.reason),
    ['CloudUnavailable', 'CloudInstanceNotFound'],
  );
});

test('removal failures are warned about and do not throw', async (t) => {
  const { cloud, events, join } = setup();
  cloud.add('10.0.4.1', 'f', { [OWNED.key]: 'owned' });
  cloud.failures.push(throttled(), throttled(), throttled());
  t.deepEqual(await join.untag('10.0.4.1', JSON.stringify([OWNED])), []);
  t.is(events.events[0]?.reason, 'CloudUnavailable');
});

test('a malformed record counts as nothing applied', (t) => {
  t.deepEqual(appliedTagsOf('not json'), []);
  t.deepEqual(appliedTagsOf('{"key":"a"}'), []);
  t.deepEqual(appliedTagsOf('[{"key":"a"},{"key":"b","value":"c"}]'), [{ key: 'b', value: 'c' }]);
});

test('without cloud capabilities nothing is asked', async (t) => {
  const events = new MemoryEventRecorder();
  const join = new CloudJoin({ mode: 'apply', events, logger: silentLogger, namespace: 'ns' });
  t.is(await join.verify('10.0.0.1', 'x'), undefined);
  t.deepEqual(await join.untag('10.0.0.1', JSON.stringify([OWNED])), []);
  t.deepEqual(events.events, []);
});

test('a cluster read that fails (not a cloud error) is warned about, never fails the join', async (t) => {
  const { cloud, events, join } = setup();
  cloud.failures.push(new Error('secrets "aws-creds" is forbidden'));
  t.is(await join.verify('10.0.5.1', 'g'), undefined);
  t.is(cloud.calls, 1);
  t.regex(events.events[0]?.message ?? '', /forbidden/);
});
