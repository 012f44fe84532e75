import test from 'ava';
import { apis, phaseIs, testWorld, until } from './world-fixture.js';

test.serial(
  'an operator killed mid-join is replaced and the join finishes, without a second client CSR',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-R' }], { costs: { powershellStartMs: 150 } });
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    const first = await world.startOperator('wmco-a');
    const address = world.hosts.hosts[0]!.address;
    await until('the join to reach WaitingForNode', phaseIs(world, address, 'WaitingForNode'), 60_000);
    await first.kill();
    const second = await world.startOperator('wmco-b');
    await until('Ready under the second operator', phaseIs(world, address, 'Ready'), 90_000);
    t.true(second.leading);
    const csrs = (await apis(world).certificates.listCertificateSigningRequest()).items.filter(
      (c) =>
        c.spec.signerName === 'kubernetes.io/kube-apiserver-client-kubelet' &&
        c.spec.username === 'system:serviceaccount:openshift-machine-config-operator:node-bootstrapper',
    );
    t.is(csrs.length, 1, 'the kubelet bootstrapped once');
    const starts = world.hosts.hosts[0]!.sim.model.scm.events.filter(
      (e) => e.action === 'create' && e.name === 'kubelet',
    );
    t.is(starts.length, 1, 'the kubelet service was created once');
  },
);
