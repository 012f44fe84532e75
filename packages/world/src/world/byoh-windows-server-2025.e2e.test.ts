// Windows Server 2025 (issue 29 item 8): a host reporting build 26100 joins on the platforms upstream
// supports it on, and gets upstream's kubelet reservations and eviction thresholds (reference §1.13)
// and containerd's sandbox image (§1.14) like any other build.
import test from 'ava';
import { phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';

test('a Windows Server 2025 host (build 26100) joins Ready with upstream kubelet reservations and eviction thresholds', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-2025' }]);
  t.teardown(() => world.stop());
  const host = world.hosts.hosts[0]!;
  host.sim.model.osBuild = 26100;
  host.sim.model.ubr = 4349;
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await world.startOperator();
  await until(`${host.address} Ready`, phaseIs(world, host.address, 'Ready'), 180_000);
  const [node] = await windowsNodes(world);
  t.is(node?.metadata?.name, 'win-2025');

  const conf = JSON.parse(host.sim.model.files.read('C:\\k\\kubelet.conf')?.toString('utf8') ?? '{}') as {
    systemReserved?: Record<string, string>;
    evictionHard?: Record<string, string>;
    enforceNodeAllocatable?: string[];
  };
  t.deepEqual(conf.systemReserved, { cpu: '500m', 'ephemeral-storage': '1Gi', memory: '2Gi' });
  t.deepEqual(conf.evictionHard, { 'imagefs.available': '15%', 'nodefs.available': '10%' });
  t.deepEqual(conf.enforceNodeAllocatable, ['none']);
  const containerd =
    host.sim.model.files.read('C:\\k\\containerd\\containerd_conf.toml')?.toString('utf8') ?? '';
  t.regex(containerd, /sandbox_image = "mcr\.microsoft\.com\/oss\/kubernetes\/pause:[0-9.]+"/);
});
