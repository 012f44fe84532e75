import test from 'ava';
import { meta, str } from '../../apiserver/json.js';
import { startSimCluster } from '../../cluster/sim-cluster.js';
import { KubeVirtMachineCloud, interfaceAddresses } from './kubevirt-machine-cloud.js';

test('a Machine becomes a VirtualMachine and a running VMI; its addresses are read from the VMI status', async (t) => {
  const cluster = await startSimCluster({ platform: 'KubeVirt' });
  t.teardown(() => cluster.stop());
  const cloud = new KubeVirtMachineCloud();
  t.throws(() => cloud.create(request()), { message: /not bound/ });
  cloud.bind(cluster.server.writer);
  const vm = cloud.create(request());
  const w = cluster.server.writer;
  const vmi = w.store.get(
    w.registry.mustFind('kubevirt.io', 'v1', 'virtualmachineinstances'),
    'openshift-machine-api',
    'win-abcde',
  );
  t.truthy(vmi);
  t.deepEqual(interfaceAddresses(vmi ?? {}), [{ type: 'InternalIP', address: '127.5.1.9' }]);
  t.deepEqual(vm.addresses, [
    { type: 'InternalIP', address: '127.5.1.9' },
    { type: 'InternalDNS', address: 'win-abcde' },
  ]);
  t.is(vm.computerName, 'win-abcde');
  t.is(vm.providerId, 'kubevirt://openshift-machine-api/win-abcde');
  const vmType = w.registry.mustFind('kubevirt.io', 'v1', 'virtualmachines');
  const stored = w.store.get(vmType, 'openshift-machine-api', 'win-abcde');
  t.regex(JSON.stringify(stored?.['spec']), /"userDataSecretRef":\{"name":"windows-user-data"\}/);
  vm.terminate();
  t.is(w.store.get(vmType, 'openshift-machine-api', 'win-abcde'), undefined);
  t.is(str(meta(stored ?? {})['name']), 'win-abcde');
});

test('a long VM name is cut to 15 characters for the computer name, as cloudbase-init does', async (t) => {
  const cluster = await startSimCluster({ platform: 'KubeVirt' });
  t.teardown(() => cluster.stop());
  const cloud = new KubeVirtMachineCloud();
  cloud.bind(cluster.server.writer);
  t.is(cloud.create(request('windows-worker-abcde')).computerName, 'windows-worker-');
});

function request(machineName = 'win-abcde'): Parameters<KubeVirtMachineCloud['create']>[0] {
  return {
    machineName,
    address: '127.5.1.9',
    userData: '#ps1_sysnative\n',
    windows: true,
    labels: {},
    providerSpec: { userDataSecret: { name: 'windows-user-data' } },
  };
}
