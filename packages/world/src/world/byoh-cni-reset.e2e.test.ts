import test from 'ava';
import { phaseIs, testWorld, until } from './world-fixture.js';

// Issue 29 item 3 (OCPBUGS-65625): host-local IP allocations an earlier configuration left in
// C:\var\lib\cni stay taken unless the folder is cleared before the host is configured again.

test.serial('a join clears the CNI state an earlier configuration left', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-A' }]);
  t.teardown(() => world.stop());
  const m = world.hosts.hosts[0]!.sim.model;
  const stale = 'C:\\var\\lib\\cni\\networks\\OVNKubernetesHybridOverlayNetwork\\10.132.0.5';
  m.files.mkdirp('C:\\var\\lib\\cni\\networks\\OVNKubernetesHybridOverlayNetwork');
  m.files.write(stale, Buffer.from('container-of-a-removed-pod'));
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await world.startOperator();
  await until('Ready', phaseIs(world, world.hosts.hosts[0]!.address, 'Ready'), 120_000);
  t.false(m.files.isFile(stale), 'the stale allocation is gone');
  t.false(m.files.isDirectory('C:\\var\\lib\\cni\\networks'));
});
