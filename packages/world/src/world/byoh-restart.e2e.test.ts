import test from 'ava';
import { apis, phaseIs, testWorld, until } from './world-fixture.js';

test.serial(
  'an operator killed mid-join is replaced and the join finishes, without a second client CSR',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-R' }], {
      // Service starts that take a while: the join is still under way for about a second after the kubelet
      // service is created.
      costs: { powershellStartMs: 150, serviceStartMs: 300 },
    });
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    const first = await world.startOperator('wmco-a');
    const address = world.hosts.hosts[0]!.address;
    // Mid-join: the kubelet service exists on the host (seen on the host itself: a phase as short as
    // WaitingForNode can pass between two polls of the status).
    const scm = world.hosts.hosts[0]!.sim.model.scm;
    const kubeletCreated = (): boolean =>
      scm.events.some((e) => e.action === 'create' && e.name === 'kubelet');
    await until(
      'the kubelet service to be created',
      () => Promise.resolve(kubeletCreated() || undefined),
      60_000,
    );
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
    const starts = scm.events.filter((e) => e.action === 'create' && e.name === 'kubelet');
    t.is(starts.length, 1, 'the kubelet service was created once');
  },
);
