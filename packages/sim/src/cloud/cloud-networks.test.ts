import test from 'ava';
import { nicJson } from './arm/arm-json.js';
import { ArmState } from './arm/arm-state.js';
import { EC2_ACTIONS } from './ec2/ec2-actions.js';
import { Ec2State } from './ec2/ec2-state.js';
import { GceJson } from './gce/gce-json.js';
import { GceState } from './gce/gce-state.js';

type Reservations = { reservationSet: { instancesSet: { instanceId: string; vpcId: string }[] }[] };

function describe(state: Ec2State, filters: Record<string, string>): { instanceId: string; vpcId: string }[] {
  const params = new URLSearchParams();
  Object.entries(filters).forEach(([name, value], n) => {
    params.set(`Filter.${n + 1}.Name`, name);
    params.set(`Filter.${n + 1}.Value.1`, value);
  });
  const out = EC2_ACTIONS.get('DescribeInstances')!(state, params) as unknown as Reservations;
  return out.reservationSet.flatMap((r) => r.instancesSet);
}

test('EC2: two VPCs may hold the same private IP; vpcId is reported and filterable', (t) => {
  const ec2 = new Ec2State('us-east-2', '123456789012');
  const peer = ec2.addVpc();
  const ours = ec2.addInstance({ privateIp: '10.0.0.5', name: 'a' });
  const theirs = ec2.addInstance({ privateIp: '10.0.0.5', name: 'b', network: peer });
  t.is(ours.network, ec2.clusterVpcId);
  t.deepEqual(
    describe(ec2, { 'private-ip-address': '10.0.0.5' })
      .map((i) => i.vpcId)
      .sort(),
    [ec2.clusterVpcId, peer].sort(),
  );
  t.deepEqual(
    describe(ec2, { 'private-ip-address': '10.0.0.5', 'vpc-id': peer }).map((i) => i.instanceId),
    [theirs.id],
  );
  t.throws(() => ec2.addInstance({ privateIp: '10.0.0.6', name: 'c', network: 'vpc-0nowhere' }), {
    message: /no VPC vpc-0nowhere/,
  });
});

test('GCE: an instance names its own VPC network; the cluster network by default', (t) => {
  const gce = new GceState('proj', 'us-central1', 'infra-network');
  const json = new GceJson('https://gce.sim', gce);
  const nic = (name: string, network?: string): unknown =>
    (
      json.instance(gce.addInstance({ privateIp: '10.0.0.5', name, ...(network ? { network } : {}) }))[
        'networkInterfaces'
      ] as { network: string }[]
    )[0]?.network;
  t.is(nic('a'), 'https://gce.sim/compute/v1/projects/proj/global/networks/infra-network');
  t.is(nic('b', 'peer-network'), 'https://gce.sim/compute/v1/projects/proj/global/networks/peer-network');
});

test('ARM: a NIC names its subnet, in the VM’s virtual network', (t) => {
  const arm = new ArmState('infra-rg', 'eastus');
  const subnet = (name: string, network?: string): unknown => {
    const vm = arm.addVm({ privateIp: '10.0.0.5', name, ...(network ? { network } : {}) });
    const ip = (nicJson(arm, vm)['properties'] as { ipConfigurations: { properties: object }[] })
      .ipConfigurations[0]?.properties as { subnet: { id: string } };
    return ip.subnet.id;
  };
  t.regex(
    String(subnet('a')),
    /\/resourceGroups\/infra-rg\/providers\/Microsoft\.Network\/virtualNetworks\/infra-vnet\/subnets\//,
  );
  t.regex(String(subnet('b', 'peer-vnet')), /\/virtualNetworks\/peer-vnet\/subnets\//);
});
