import test from 'ava';
import type { InstanceIdentity } from '../provider/capabilities/instance-identity.js';
import { InstanceOutsideClusterNetworkError } from '../provider/cloud-network-error.js';
import { checkCloud } from './cloud-check.js';

test('an address only an instance outside the cluster network has fails the cloud-instance check', async (t) => {
  const identity: InstanceIdentity = {
    identify: (address) =>
      Promise.reject(
        new InstanceOutsideClusterNetworkError('gcp', {
          ...{ address, instanceId: '42', network: 'projects/p/global/networks/peer' },
          clusterNetwork: 'projects/p/global/networks/infra-network',
        }),
      ),
  };
  const findings = await checkCloud({
    address: '10.0.0.5',
    vxlanPort: 4789,
    infrastructureName: 'i',
    identity,
  });
  t.is(findings[0]?.status, 'fail');
  t.regex(findings[0]?.detail ?? '', /networks\/peer, not the cluster's network .*infra-network/);
  t.true(findings.slice(1).every((f) => f.status === 'skip'));
});
