import test from 'ava';
import {
  CloudNotConfiguredError,
  InstanceOutsideClusterNetworkError,
  pickInClusterNetwork,
} from '@wmco/core/provider';
import { networkPath, pickClusterNetwork } from './gcp-cluster-network.js';
import { toCloudInstance } from './gcp-instance-identity.js';
import { gcpOwnershipLabel } from './gcp-instance-tagging.js';

const NET = (name: string, base = 'https://compute.googleapis.com/compute/v1'): string =>
  `${base}/projects/p/global/networks/${name}`;
const vm = (name: string, ip: string, network: string): object => ({
  id: name.length,
  name,
  zone: 'zones/us-central1-a',
  networkInterfaces: [{ networkIP: ip, network }],
});

test('networks compare by project and name, whatever the endpoint', (t) => {
  t.is(networkPath(NET('infra-network')), 'projects/p/global/networks/infra-network');
  t.is(
    networkPath(NET('infra-network', 'https://127.0.0.1:4443/compute/v1')),
    'projects/p/global/networks/infra-network',
  );
  t.is(networkPath('global/networks/x'), undefined);
});

test('the cluster network is the one network of the instances labelled owned', (t) => {
  t.is(
    pickClusterNetwork(
      [vm('m0', '10.0.0.2', NET('infra-network')), vm('m1', '10.0.0.3', NET('infra-network'))],
      'infra',
    ),
    'projects/p/global/networks/infra-network',
  );
  const none = t.throws(() => pickClusterNetwork([], 'infra'), { instanceOf: CloudNotConfiguredError });
  t.regex(none.message, /no instance is labelled kubernetes-io-cluster-infra=owned/);
  t.throws(
    () => pickClusterNetwork([vm('a', '10.0.0.2', NET('x')), vm('b', '10.0.0.3', NET('y'))], 'infra'),
    {
      message: /are on projects\/p\/global\/networks\/x, projects\/p\/global\/networks\/y/,
    },
  );
});

test('the same networkIP on another network of the project is refused', (t) => {
  const peer = toCloudInstance('p', vm('peer', '10.0.0.5', NET('peer-network')), '10.0.0.5');
  const ours = toCloudInstance('p', vm('win', '10.0.0.5', NET('infra-network')), '10.0.0.5');
  const cluster = 'projects/p/global/networks/infra-network';
  t.is(pickInClusterNetwork('gcp', '10.0.0.5', [peer, ours], cluster)?.name, 'win');
  const err = t.throws(() => pickInClusterNetwork('gcp', '10.0.0.5', [peer], cluster), {
    instanceOf: InstanceOutsideClusterNetworkError,
  });
  t.regex(
    err.message,
    /is in network projects\/p\/global\/networks\/peer-network, not the cluster's network .*infra-network/,
  );
});

test('BYOH instances are labelled shared unless owned is asked for; keys hold no / or .', (t) => {
  t.deepEqual(gcpOwnershipLabel('infra-1'), { key: 'kubernetes-io-cluster-infra-1', value: 'shared' });
  t.is(gcpOwnershipLabel('infra-1', 'apply-owned').value, 'owned');
  t.notRegex(gcpOwnershipLabel('infra-1').key, /[/.]/);
});
