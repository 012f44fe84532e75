// Values from the Node never become script text, and a host cannot exhaust the operator's memory.
import test from 'ava';
import { HybridOverlayAnnotator, OPERATOR_NAMESPACE } from '@wmco/sim';
import { eventsAbout, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';

const HOSTILE = "10.132.0.0/24'; Remove-Item -Recurse -Force C:\\k; '";

test.serial(
  'a hostile hybrid-overlay subnet is refused with an event and nothing runs with it',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-EVIL' }, { hostname: 'WIN-GOOD' }]);
    t.teardown(() => world.stop());
    const annotator = world.cluster.controllers.find((c) => c instanceof HybridOverlayAnnotator);
    if (!(annotator instanceof HybridOverlayAnnotator)) throw new Error('no hybrid-overlay annotator');
    annotator.hostileSubnet = (node) => (node === 'win-evil' ? HOSTILE : undefined);
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0), world.hosts.entry(1)]));
    await world.startOperator();
    const [evil, good] = world.hosts.hosts;
    await until('WIN-GOOD Ready', phaseIs(world, good!.address, 'Ready'), 90_000);
    const failed = await until('WIN-EVIL Failed', phaseIs(world, evil!.address, 'Failed'), 90_000);
    t.regex(failed.lastError ?? '', /refusing NODE_SUBNET = ".*": not an IPv4 CIDR/);
    const events = (await eventsAbout(world)).filter(
      (e) => e.reason === 'InstanceSetupFailure' && e.message.includes(evil!.address),
    );
    t.true(
      events.some((e) => /NODE_SUBNET/.test(e.message)),
      'one clear event names the variable',
    );

    // What ran on the host: no script ever carried the value, network-conf.ps1 never ran, and no service of
    // the node levels (hybrid-overlay, kube-proxy) was created; only the bootstrap services were stopped.
    const ran = evil!.sim.invocations;
    const scripts = ran.flatMap((i) => i.scripts);
    t.false(JSON.stringify(ran).includes('Remove-Item'), 'the value never reached the host');
    t.false(
      scripts.some((s) => s.script.includes('network-conf.ps1')),
      'network-conf.ps1 never ran',
    );
    t.is(evil!.sim.model.scm.get('hybrid-overlay-node'), undefined);
    t.is(evil!.sim.model.scm.get('kube-proxy'), undefined);
    t.true(evil!.sim.model.files.isFile('C:\\k\\kubelet.exe'), 'nothing was removed');
    t.deepEqual(evil!.sim.unsupportedCommands, []);
    t.is(ran.at(-1)?.op, 'deconfigure', 'the last thing the operator did was stop what it had started');

    // The good host ran kube-proxy's script with its values as data.
    const goodScripts = good!.sim.invocations.flatMap((i) => i.scripts);
    const network = goodScripts.find((s) => s.script.includes('network-conf.ps1'));
    t.regex(network?.script ?? '', /-clusterCIDR \$WmcoArg_NODE_SUBNET /);
    t.regex(network?.args?.['NODE_SUBNET'] ?? '', /^10\.132\.\d+\.0\/23$/);
    t.is((await windowsNodes(world)).filter((n) => n.spec?.unschedulable !== true).length, 1);
  },
);

test.serial('a host streaming endless output fails its join clearly; memory stays bounded', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-LOUD' }]);
  t.teardown(() => world.stop());
  const [loud] = world.hosts.hosts;
  loud!.sim.faults.endlessOutput = true;
  global.gc?.();
  const before = process.memoryUsage();
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss - before.rss);
  }, 20);
  t.teardown(() => clearInterval(sampler));
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await world.startOperator();
  const failure = await until('the output-limit event', async () =>
    (await eventsAbout(world)).find(
      (e) => e.reason === 'InstanceSetupFailure' && /printed more than \d+ bytes/.test(e.message),
    ),
  );
  t.regex(failure.message, new RegExp(`instance ${loud!.address.replace(/\./g, '\\.')}: .*stopped reading`));
  clearInterval(sampler);
  // The operator read at most its cap (8 MiB) of what the host streamed; the process stayed far below it
  // growing with the stream (the host writes until the channel closes).
  t.log(`RSS grew by at most ${Math.round(peak / 1048576)} MiB while the host streamed`);
  t.true(peak < 128 * 1024 * 1024, `RSS grew by ${Math.round(peak / 1048576)} MiB`);
  // The fault fires once: the retried join completes.
  await until('WIN-LOUD Ready after the retry', phaseIs(world, loud!.address, 'Ready'), 90_000);
  t.pass();
});

test.serial(
  'windows-instances-status keeps only current instances; lastError has no control characters',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-S' }]);
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    const [host] = world.hosts.hosts;
    const bad = { 'bad-entry.invalid': 'username=adm\u001b[31min' };
    await world.setInstances({ ...Object.fromEntries([world.hosts.entry(0)]), ...bad });
    await world.startOperator();
    await until('WIN-S Ready', phaseIs(world, host!.address, 'Ready'), 90_000);
    const failed = await until('the bad entry Failed', phaseIs(world, 'bad-entry.invalid', 'Failed'));
    t.false(/\p{Cc}/u.test(failed.lastError ?? ''), 'no control character in lastError');
    t.regex(failed.lastError ?? '', /username "admin" is not a valid/, 'the ANSI sequence is gone');

    await world.setInstances({});
    await until('the node removed', async () =>
      (await windowsNodes(world)).length === 0 ? true : undefined,
    );
    const data = await until('every instance status deleted', async () => {
      const cm = await world
        .admin()
        .readNamespacedConfigMap({ name: 'windows-instances-status', namespace: OPERATOR_NAMESPACE });
      return Object.keys(cm.data ?? {}).length === 1 ? (cm.data ?? {}) : undefined;
    });
    t.deepEqual(Object.keys(data), ['operator'], "only the operator's own conditions are left");
    const teardown = (await eventsAbout(world)).filter((e) => e.reason === 'InstanceTeardown');
    t.is(teardown.length, 1, 'the removal is still on record as an event');
  },
);
