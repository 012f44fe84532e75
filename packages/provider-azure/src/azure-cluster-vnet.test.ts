import test from 'ava';
import {
  CloudNotConfiguredError,
  InstanceOutsideClusterNetworkError,
  pickInClusterNetwork,
} from '@wmco/core/provider';
import { pickClusterVnet, vnetOfSubnet } from './azure-cluster-vnet.js';
import { toCloudInstance } from './azure-instance-identity.js';
import { azureOwnershipTag } from './azure-instance-tagging.js';

const RG = '/subscriptions/s-1/resourceGroups/Infra-RG/providers/Microsoft.Network/virtualNetworks';

test('a subnet ID names its virtual network, compared without case', (t) => {
  t.is(vnetOfSubnet(`${RG}/infra-vnet/subnets/worker`), `${RG}/infra-vnet`.toLowerCase());
  t.is(vnetOfSubnet(`${RG.toLowerCase()}/INFRA-VNET/subnets/w`), vnetOfSubnet(`${RG}/infra-vnet/subnets/x`));
  t.is(vnetOfSubnet(undefined), undefined);
  t.is(vnetOfSubnet('/subscriptions/s/resourceGroups/r'), undefined);
});

test('the cluster virtual network is the one network of the VMs tagged owned', (t) => {
  const vnet = vnetOfSubnet(`${RG}/infra-vnet/subnets/master`)!;
  t.is(pickClusterVnet([vnet, vnet, undefined], 'infra'), vnet);
  const none = t.throws(() => pickClusterVnet([], 'infra'), { instanceOf: CloudNotConfiguredError });
  t.regex(none.message, /no VM tagged kubernetes\.io_cluster\.infra=owned/);
  t.throws(() => pickClusterVnet(['a', 'b'], 'infra'), { message: /are in a, b/ });
});

test('the same private IP in another virtual network is refused', (t) => {
  const cluster = vnetOfSubnet(`${RG}/infra-vnet/subnets/worker`)!;
  const peer = toCloudInstance(
    { id: 'vm-peer', name: 'peer', location: 'eastus' },
    '10.0.0.5',
    vnetOfSubnet(`${RG}/peer-vnet/subnets/w`),
  );
  const ours = toCloudInstance({ id: 'vm-win', name: 'win', location: 'eastus' }, '10.0.0.5', cluster);
  t.is(pickInClusterNetwork('azure', '10.0.0.5', [peer, ours], cluster)?.name, 'win');
  const err = t.throws(() => pickInClusterNetwork('azure', '10.0.0.5', [peer], cluster), {
    instanceOf: InstanceOutsideClusterNetworkError,
  });
  t.regex(
    err.message,
    /instance vm-peer .* is in network .*\/peer-vnet, not the cluster's network .*\/infra-vnet/,
  );
});

test('BYOH VMs are tagged shared unless owned is asked for; the key holds no /', (t) => {
  t.deepEqual(azureOwnershipTag('infra-1'), { key: 'kubernetes.io_cluster.infra-1', value: 'shared' });
  t.is(azureOwnershipTag('infra-1', 'apply-owned').value, 'owned');
  t.notRegex(azureOwnershipTag('infra-1').key, /\//);
});
