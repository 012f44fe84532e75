// Issue 29, item 6: the minimum Windows build is enforced at join, not only by `wmco preflight`. A host
// reporting a build the platform does not support is refused before anything changes on it, with a
// Warning event and a status naming the build and the supported releases; once updated, it joins.
import test from 'ava';
import { eventsAbout, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';

test('a host on an unsupported Windows build is refused at join with a clear event, and joins once updated', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-OLD' }]);
  t.teardown(() => world.stop());
  const host = world.hosts.hosts[0]!;
  // Windows Server 2016 (build 14393): no platform supports it.
  host.sim.model.osBuild = 14393;
  host.sim.model.ubr = 6897;
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await world.startOperator();

  const event = await until(
    'the UnsupportedWindowsBuild event',
    async () =>
      (await eventsAbout(world)).find(
        (e) => e.reason === 'UnsupportedWindowsBuild' && e.message.includes(host.address),
      ),
    90_000,
  );
  t.is(event.type, 'Warning');
  t.regex(
    event.message,
    /OS build 14393\.6897 is not supported on platform None; supported: Windows Server 2019 \(17763\), Windows Server 2022 \(20348\), Windows Server 2025 \(26100\); nothing was changed on the host: use one of: /,
  );
  // The event is recorded before the status is written: wait for the status, not one read of it.
  await until(`${host.address} Failed`, phaseIs(world, host.address, 'Failed'), 60_000);
  const status = await world.status(host.address);
  t.regex(status?.lastError ?? '', /OS build 14393\.6897 is not supported/);
  t.deepEqual(host.sim.model.scm.all(), [], 'no service was created: the kubelet never started');
  t.false(host.sim.model.files.isFile('C:\\k\\kubelet.exe'), 'no payload file was copied');
  t.deepEqual(await windowsNodes(world), [], 'no Node');

  // The administrator moves the host to Windows Server 2022; the operator's retry joins it.
  host.sim.model.osBuild = 20348;
  host.sim.model.ubr = 2700;
  await until(`${host.address} Ready once updated`, phaseIs(world, host.address, 'Ready'), 180_000);
  t.is((await windowsNodes(world)).length, 1);
});
