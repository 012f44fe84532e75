import test from 'ava';
import { buildUserData } from '@wmco/core';
import { parseAuthorizedKey } from '@wmco/core';
import { str, type JsonObject } from '../../apiserver/json.js';
import { startSimCluster } from '../../cluster/sim-cluster.js';
import { SimArm } from '../../cloud/arm/sim-arm.js';
import { SimEc2 } from '../../cloud/ec2/sim-ec2.js';
import { GceJson } from '../../cloud/gce/gce-json.js';
import { SimGce } from '../../cloud/gce/sim-gce.js';
import { FREE_HOST_COSTS } from '../../windows/host-costs.js';
import { generateEd25519KeyPair } from '../../windows/ssh-auth.js';
import { eventually, machineAddress, sshLogin } from '../machine-api.test-helper.js';
import { machineType, obj } from '../machine-objects.js';
import { SimInstanceLauncher, type MachineInstance } from '../machine-instances.js';
import { ArmMachineCloud } from './arm-machine-cloud.js';
import { Ec2MachineCloud } from './ec2-machine-cloud.js';
import { GceMachineCloud, removePowershellTags } from './gce-machine-cloud.js';
import { CLUSTER_ID_LABEL, type MachineCloud } from './machine-cloud.js';

// The machine-api's cloud actuators: each Machine's instance is created in the simulated cloud with the
// user data, tags and names its provider uses, and the guest boots from the user data as the cloud hands
// it over.
const key = generateEd25519KeyPair();
const tagged = (s: string): string => `<powershell>${s}</powershell>\n<persist>true</persist>\n`;
const ROUTE_STEP = '& "$env:ProgramFiles\\Amazon\\EC2Launch\\EC2Launch.exe" run-task add-routes --persistent';
const userData = (wrap: (s: string) => string, extraSteps: string[] = []): string =>
  buildUserData(parseAuthorizedKey(key.public), { extraSteps, wrap });
const NS = 'openshift-machine-api';
const labels = { [CLUSTER_ID_LABEL]: 'sim-x7k2p', 'machine.openshift.io/os-id': 'Windows' };

async function launch(
  cloud: MachineCloud,
  script: string,
  providerSpec: JsonObject = {},
): Promise<MachineInstance> {
  const launcher = new SimInstanceLauncher({
    allocateAddress: machineAddress,
    host: { costs: FREE_HOST_COSTS },
    cloud,
  });
  return launcher.launch({
    machineName: 'winworker-a1b2c',
    platform: cloud.platform,
    userData: script,
    windows: true,
    labels,
    providerSpec,
  });
}

test('AWS: an instance with the user data, tags and zone; private DNS name as InternalDNS and Hostname', async (t) => {
  const ec2 = await SimEc2.start({ region: 'us-east-2' });
  t.teardown(() => ec2.close());
  const script = userData(tagged, [ROUTE_STEP]);
  const vm = await launch(new Ec2MachineCloud(ec2), script, {
    placement: { availabilityZone: 'us-east-2b' },
    tags: [{ name: 'team', value: 'win' }],
  });
  t.teardown(() => vm.stop());
  const [instance] = [...ec2.state.instances.values()];
  t.is(instance?.userData, script);
  t.deepEqual(instance?.tagRecord(), {
    Name: 'winworker-a1b2c',
    'kubernetes.io/cluster/sim-x7k2p': 'owned',
    team: 'win',
  });
  const dns = `ip-${vm.address.replace(/\./g, '-')}.us-east-2.compute.internal`;
  t.is(vm.providerId, `aws:///us-east-2b/${instance?.id ?? ''}`);
  t.deepEqual(vm.addresses, [
    { type: 'InternalIP', address: vm.address },
    { type: 'InternalDNS', address: dns },
    { type: 'Hostname', address: dns },
  ]);
  t.regex(vm.hostname, /^EC2AMAZ-[A-Z0-9]{7}$/);
  t.is(vm.host?.model.metadataHostname, dns);
  t.is(await sshLogin(vm.address, vm.host?.port ?? 22, key.private), 'ok');
  t.true(vm.host?.model.routes.some((r) => r.destinationPrefix === '169.254.169.254/32'));
  t.false(vm.host?.model.volatileRoutes.has('169.254.169.254/32'), 'EC2Launch made the route persistent');
  await vm.stop();
  t.is(ec2.state.instances.size, 0, 'terminated with its Machine');
});

test('AWS: user data without the EC2Launch route step leaves the metadata route to be lost at reboot', async (t) => {
  const ec2 = await SimEc2.start({ region: 'us-east-2' });
  t.teardown(() => ec2.close());
  const vm = await launch(new Ec2MachineCloud(ec2), userData(tagged));
  t.teardown(() => vm.stop());
  t.true(vm.host?.model.volatileRoutes.has('169.254.169.254/32'));
});

test('Azure: a VM named after the Machine, admin user capi, custom data, ownership tag', async (t) => {
  const arm = await SimArm.start({ resourceGroup: 'sim-rg' });
  t.teardown(() => arm.close());
  const script = userData(tagged);
  const vm = await launch(new ArmMachineCloud(arm), script, { zone: '2', tags: { team: 'win' } });
  t.teardown(() => vm.stop());
  const instance = arm.state.vms.get('winworker-a1b2c');
  t.is(instance?.userData, script);
  t.is(instance?.zone, '2');
  t.deepEqual(instance?.tagRecord(), { 'kubernetes.io_cluster.sim-x7k2p': 'owned', team: 'win' });
  t.is(
    vm.providerId,
    `azure:///subscriptions/${arm.state.subscriptionId}/resourceGroups/sim-rg/providers/Microsoft.Compute/virtualMachines/winworker-a1b2c`,
  );
  t.deepEqual(vm.addresses, [
    { type: 'Hostname', address: 'winworker-a1b2c' },
    { type: 'InternalDNS', address: 'winworker-a1b2c' },
    { type: 'InternalIP', address: vm.address },
  ]);
  t.is(await sshLogin(vm.address, vm.host?.port ?? 22, key.private, 'capi'), 'ok');
  t.is(await sshLogin(vm.address, vm.host?.port ?? 22, key.private, 'Administrator'), 'auth');
  await vm.stop();
  t.is(arm.state.vms.size, 0);
});

test('GCP: the Windows script metadata item without tags, zonal DNS names, labels', async (t) => {
  const gce = await SimGce.start({ project: 'p1', region: 'us-central1' });
  t.teardown(() => gce.close());
  const script = userData((s) => s);
  const vm = await launch(new GceMachineCloud(gce, 'us-central1-a'), tagged(script), {
    zone: 'us-central1-b',
    labels: { team: 'win' },
  });
  t.teardown(() => vm.stop());
  const instance = gce.state.find('us-central1-b', 'winworker-a1b2c');
  t.is(instance?.userData, script, 'machine-api removed the <powershell> tags');
  const json = instance ? new GceJson(gce.url, gce.state).instance(instance) : {};
  t.deepEqual(json['metadata'], {
    kind: 'compute#metadata',
    items: [{ key: 'sysprep-specialize-script-ps1', value: script }],
  });
  t.deepEqual(instance?.tagRecord(), { 'kubernetes-io-cluster-sim-x7k2p': 'owned', team: 'win' });
  t.is(vm.providerId, 'gce://p1/us-central1-b/winworker-a1b2c');
  t.deepEqual(vm.addresses, [
    { type: 'InternalIP', address: vm.address },
    { type: 'InternalDNS', address: 'winworker-a1b2c.us-central1-b.c.p1.internal' },
    { type: 'InternalDNS', address: 'winworker-a1b2c.c.p1.internal' },
    { type: 'InternalDNS', address: 'winworker-a1b2c' },
  ]);
  t.is(vm.host?.model.metadataHostname, 'winworker-a1b2c.us-central1-b.c.p1.internal');
  t.is(await sshLogin(vm.address, vm.host?.port ?? 22, key.private), 'ok');
  await vm.stop();
  t.is(gce.state.instances.size, 0);
});

test('broken user data: the instance exists in the cloud, but nothing answers on SSH', async (t) => {
  const ec2 = await SimEc2.start({ region: 'us-east-2' });
  t.teardown(() => ec2.close());
  const vm = await launch(new Ec2MachineCloud(ec2), 'Start-Service sshd\n');
  t.teardown(() => vm.stop());
  t.is(ec2.state.instances.size, 1);
  t.is(vm.host, undefined);
  t.deepEqual(vm.boot?.problems, ['no <powershell> block: the agent ran nothing']);
});

test('removePowershellTags strips only a complete pair, as machine-api does', (t) => {
  t.is(removePowershellTags('<powershell>a\nb</powershell>\n<persist>true</persist>\n'), 'a\nb');
  t.is(removePowershellTags('<powershell>a</powershell>'), 'a');
  t.is(removePowershellTags('<powershell>a'), '<powershell>a');
  t.is(removePowershellTags('a</powershell>'), 'a</powershell>');
  t.is(removePowershellTags('a'), 'a');
});

test('Azure: ARM refuses a Windows VM whose name is longer than 15 characters; the Machine fails', async (t) => {
  const arm = await SimArm.start({ resourceGroup: 'sim-rg' });
  t.teardown(() => arm.close());
  const launcher = new SimInstanceLauncher({
    allocateAddress: machineAddress,
    host: { costs: FREE_HOST_COSTS },
    cloud: new ArmMachineCloud(arm),
  });
  const c = await startSimCluster({ platform: 'Azure', machineInstances: launcher });
  t.teardown(() => c.stop());
  const w = c.server.writer;
  w.create(w.registry.mustFind('', 'v1', 'secrets'), NS, {
    metadata: { name: 'windows-user-data', namespace: NS },
    data: { userData: Buffer.from(userData(tagged)).toString('base64') },
  });
  for (const name of ['winworker1-a1b2c', 'winworker-a1b2c'])
    w.create(machineType(w), NS, {
      metadata: { name, namespace: NS, labels },
      spec: {
        providerSpec: {
          value: { kind: 'AzureMachineProviderSpec', userDataSecret: { name: 'windows-user-data' } },
        },
      },
    });
  const status = (name: string): JsonObject => obj(w.store.get(machineType(w), NS, name)?.['status']);
  await eventually('the long name Failed', () =>
    status('winworker1-a1b2c')['phase'] === 'Failed' ? true : undefined,
  );
  await eventually('the short name Provisioned', () =>
    status('winworker-a1b2c')['phase'] === 'Provisioned' ? true : undefined,
  );
  t.is(status('winworker1-a1b2c')['errorReason'], 'InvalidConfiguration');
  t.regex(
    str(status('winworker1-a1b2c')['errorMessage']) ?? '',
    /computer name cannot be more than 15 characters/,
  );
  t.deepEqual([...arm.state.vms.keys()], ['winworker-a1b2c']);
  t.deepEqual(c.errors, []);
  await Promise.all([...launcher.instances.values()].map((i) => i.stop()));
});
