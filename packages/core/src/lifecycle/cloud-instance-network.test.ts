import test from 'ava';
import { MemoryEventRecorder } from '../kube/event-recorder.js';
import { silentLogger } from '../kube/logger.js';
import type { CloudInstance, InstanceIdentity } from '../provider/capabilities/instance-identity.js';
import type { CloudTag, InstanceTagging, TagResult } from '../provider/capabilities/instance-tagging.js';
import { InstanceOutsideClusterNetworkError } from '../provider/cloud-network-error.js';
import { NodeNameError } from '../identity/name-decision.js';
import { CloudJoin } from './cloud-instance.js';

const CLUSTER = 'vpc-cluster';
const TAG: CloudTag = { key: 'kubernetes.io/cluster/infra-1', value: 'shared' };

/** Instances by private IP in two networks with overlapping ranges; identify answers as providers must. */
class TwoNetworks implements InstanceIdentity, InstanceTagging {
  readonly instances: (CloudInstance & { network: string; tags: Record<string, string> })[] = [];
  readonly writes: string[] = [];

  add(ip: string, name: string, network: string, tags: Record<string, string> = {}): void {
    const id = `i-${network}-${ip}`;
    this.instances.push({
      ...{ instanceId: id, name: id, providerId: `aws:///z/${id}`, zone: 'z', privateIp: ip },
      ...{ privateDnsName: name, network, tags },
    });
  }

  identify(address: string): Promise<CloudInstance | undefined> {
    const hits = this.instances.filter((i) => i.privateIp === address);
    const ours = hits.find((i) => i.network === CLUSTER);
    const other = hits[0];
    if (!ours && other)
      return Promise.reject(
        new InstanceOutsideClusterNetworkError('aws', {
          ...{ address, instanceId: other.instanceId, network: other.network, clusterNetwork: CLUSTER },
        }),
      );
    return Promise.resolve(ours);
  }

  ownershipTag(): CloudTag {
    return TAG;
  }

  ensureTag(instance: CloudInstance): Promise<TagResult> {
    this.writes.push(`tag ${instance.instanceId}`);
    return Promise.resolve({ instanceId: instance.instanceId, tag: TAG, state: 'applied' });
  }

  removeTags(instance: CloudInstance): Promise<readonly string[]> {
    this.writes.push(`untag ${instance.instanceId}`);
    return Promise.resolve([TAG.key]);
  }
}

function setup(): { cloud: TwoNetworks; events: MemoryEventRecorder; join: CloudJoin } {
  const cloud = new TwoNetworks();
  const events = new MemoryEventRecorder();
  const join = new CloudJoin({
    ...{ identity: cloud, tagging: cloud, mode: 'apply', events, logger: silentLogger },
    ...{ namespace: 'ns', backoffMs: 1 },
  });
  return { cloud, events, join };
}

test('an address only another network has is refused with an event naming both networks', async (t) => {
  const { cloud, events, join } = setup();
  cloud.add('10.0.0.5', 'ip-10-0-0-5.ec2.internal', 'vpc-peer');
  const err = await t.throwsAsync(join.verify('10.0.0.5', 'ip-10-0-0-5.ec2.internal'), {
    instanceOf: NodeNameError,
  });
  t.regex(
    err.message,
    /i-vpc-peer-10\.0\.0\.5\) is in network vpc-peer, not the cluster's network vpc-cluster/,
  );
  const [event] = events.events;
  t.is(event?.type, 'Warning');
  t.is(event?.reason, 'CloudInstanceOutsideNetwork');
  t.regex(event?.message ?? '', /i-vpc-peer-10\.0\.0\.5.*vpc-peer.*vpc-cluster/);
  t.deepEqual(cloud.writes, [], 'nothing tagged');
});

test('the same address in the cluster network and another: the cluster one is the identity', async (t) => {
  const { cloud, events, join } = setup();
  cloud.add('10.0.0.6', 'ip-10-0-0-6.ec2.internal', 'vpc-peer');
  cloud.add('10.0.0.6', 'ip-10-0-0-6.ec2.internal', CLUSTER);
  const facts = await join.verify('10.0.0.6', 'ip-10-0-0-6.ec2.internal');
  t.is(facts?.instance.instanceId, 'i-vpc-cluster-10.0.0.6');
  t.deepEqual(events.events, []);
});

test('removal never touches the tags of an instance outside the cluster network', async (t) => {
  const { cloud, events, join } = setup();
  cloud.add('10.0.0.7', 'x', 'vpc-peer', { [TAG.key]: TAG.value });
  t.deepEqual(await join.untag('10.0.0.7', JSON.stringify([TAG])), []);
  t.deepEqual(cloud.writes, []);
  t.is(events.events[0]?.reason, 'CloudInstanceOutsideNetwork');
});
