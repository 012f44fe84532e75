import test from 'ava';
import {
  CloudNotConfiguredError,
  InstanceOutsideClusterNetworkError,
  pickInClusterNetwork,
} from '@wmco/core/provider';
import { pickClusterVpc } from './aws-cluster-vpc.js';
import { toCloudInstance } from './aws-instance-identity.js';
import { awsOwnershipTag } from './aws-instance-tagging.js';

test('the cluster VPC is the one VPC of the instances tagged owned', (t) => {
  t.is(pickClusterVpc([{ VpcId: 'vpc-0a' }, { VpcId: 'vpc-0a' }, {}], 'infra-1'), 'vpc-0a');
  const none = t.throws(() => pickClusterVpc([], 'infra-1'), { instanceOf: CloudNotConfiguredError });
  t.regex(none.message, /no instance in a VPC is tagged kubernetes\.io\/cluster\/infra-1=owned/);
  const two = t.throws(() => pickClusterVpc([{ VpcId: 'vpc-0b' }, { VpcId: 'vpc-0a' }], 'infra-1'));
  t.regex(two.message, /are in vpc-0a, vpc-0b/);
});

test('an address held in the cluster VPC and in another is the cluster one; only elsewhere is refused', (t) => {
  const peer = toCloudInstance({ InstanceId: 'i-0peer', PrivateIpAddress: '10.0.0.5', VpcId: 'vpc-0peer' });
  const ours = toCloudInstance({ InstanceId: 'i-0ours', PrivateIpAddress: '10.0.0.5', VpcId: 'vpc-0a' });
  t.is(peer.network, 'vpc-0peer');
  t.is(pickInClusterNetwork('aws', '10.0.0.5', [peer, ours], 'vpc-0a')?.instanceId, 'i-0ours');
  t.is(pickInClusterNetwork('aws', '10.0.0.5', [], 'vpc-0a'), undefined);
  const err = t.throws(() => pickInClusterNetwork('aws', '10.0.0.5', [peer], 'vpc-0a'), {
    instanceOf: InstanceOutsideClusterNetworkError,
  });
  t.is(
    err.message,
    "aws: instance i-0peer has private IP 10.0.0.5 but is in network vpc-0peer, not the cluster's network vpc-0a",
  );
});

test('BYOH instances are tagged shared unless owned is asked for', (t) => {
  t.deepEqual(awsOwnershipTag('infra-1'), { key: 'kubernetes.io/cluster/infra-1', value: 'shared' });
  t.is(awsOwnershipTag('infra-1', 'apply').value, 'shared');
  t.is(awsOwnershipTag('infra-1', 'apply-owned').value, 'owned');
});
