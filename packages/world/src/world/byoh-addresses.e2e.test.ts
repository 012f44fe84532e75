import test from 'ava';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventsAbout, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';

type Event = Awaited<ReturnType<typeof eventsAbout>>[number];

/** Waits until every key has a refusal event, then returns them (one list per key). */
async function refusals(
  events: () => Promise<Event[]>,
  keys: readonly string[],
): Promise<Record<string, Event[]>> {
  return until(
    'one refusal event per bad key',
    async () => {
      const all = (await events()).filter((e) => e.reason === 'InstanceSetupFailure');
      const byKey = Object.fromEntries(keys.map((k) => [k, all.filter((e) => e.message.includes(`"${k}"`))]));
      return Object.values(byKey).every((l) => l.length > 0) ? byKey : undefined;
    },
    60_000,
  );
}

test.serial(
  'non-canonical numbers, special ranges and the cluster’s own addresses: one event each, no SSH',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-OK' }, { hostname: 'WIN-TARGET' }]);
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    const target = world.hosts.hosts[1]!;
    const [a, b, c, d] = target.address.split('.').map(Number) as [number, number, number, number];
    const bad: Record<string, RegExp> = {
      // The target host's own address, spelled in forms a resolver would turn into it.
      [`${a}.${b}.${c * 256 + d}`]: /non-canonical form/,
      [String(((a * 256 + b) * 256 + c) * 256 + d)]: /non-canonical form/,
      [`0x${a.toString(16)}.${b}.${c}.${d}`]: /non-canonical form/,
      [`0${a.toString(8)}.${b}.${c}.${d}`]: /non-canonical form/,
      '169.254.169.254': /link-local/,
      '0.0.0.0': /unspecified/,
      '224.0.0.1': /multicast/,
      // Loopback is allowed in this world, but not the API server's own address...
      '127.0.0.1': /the cluster's API server, not a Windows host/,
      // ...nor a Linux node's.
      '10.0.0.10': /the address of node master-0/,
    };
    await world.setInstances({
      ...Object.fromEntries([world.hosts.entry(0)]),
      ...Object.fromEntries(Object.keys(bad).map((k) => [k, 'username=Administrator'])),
    });
    await world.startOperator();
    await until('the good host Ready', phaseIs(world, world.hosts.hosts[0]!.address, 'Ready'), 90_000);
    const byKey = await refusals(() => eventsAbout(world), Object.keys(bad));
    await sleep(1500); // a few more drift rounds: nothing new may be reported
    const again = await refusals(() => eventsAbout(world), Object.keys(bad));
    for (const [key, why] of Object.entries(bad)) {
      t.is(again[key]?.length, 1, `exactly one event for ${key}`);
      t.regex(byKey[key]?.[0]?.message ?? '', why, key);
    }
    t.is(target.sim.stats.connectionsAccepted, 0, 'no SSH connection reached the target host');
    t.is((await windowsNodes(world)).length, 1);
  },
);

test.serial('loopback entries are refused when the option is off (the default of wmco run)', async (t) => {
  const { world } = await testWorld(
    [{ hostname: 'WIN-LO' }, { hostname: 'WIN-LO-DNS', dnsName: 'win-lo.sim.internal' }],
    {
      allowLoopbackInstances: false,
    },
  );
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0), world.hosts.entry(1)]));
  await world.startOperator();
  const [byIp, byName] = [world.hosts.key(0), world.hosts.key(1)];
  const byKey = await refusals(() => eventsAbout(world), [byIp, byName]);
  t.regex(byKey[byIp]?.[0]?.message ?? '', /is a loopback address \(127\.0\.0\.0\/8\)/);
  t.regex(
    byKey[byName]?.[0]?.message ?? '',
    /win-lo\.sim\.internal resolves to 127\.[\d.]+, which is a loopback/,
  );
  await sleep(1000);
  t.is(world.hosts.hosts[0]!.sim.stats.connectionsAccepted, 0);
  t.is(world.hosts.hosts[1]!.sim.stats.connectionsAccepted, 0);
  t.is((await world.status(byIp))?.phase, 'Failed');
});

test.serial('two entries for one host are one host: the later is refused with one event', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-DUP', dnsName: 'win-dup.sim.internal' }]);
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  const host = world.hosts.hosts[0]!;
  await world.setInstances({
    [host.address]: 'username=Administrator',
    'win-dup.sim.internal': 'username=Administrator',
  });
  await world.startOperator();
  await until('the host Ready', phaseIs(world, host.address, 'Ready'), 90_000);
  const dup = await until('the duplicate event', async () => {
    const l = (await eventsAbout(world)).filter((e) => /reaches the same host/.test(e.message));
    return l.length > 0 ? l : undefined;
  });
  await sleep(1500);
  const after = (await eventsAbout(world)).filter((e) => /reaches the same host/.test(e.message));
  t.is(after.length, 1, 'one event');
  t.regex(
    dup[0]!.message,
    new RegExp(
      `reaches the same host \\(${host.address.replace(/\./g, '\\.')}\\) as entry "(${host.address.replace(/\./g, '\\.')}|win-dup\\.sim\\.internal)"`,
    ),
  );
  const nodes = await windowsNodes(world);
  t.is(nodes.length, 1, 'one Node for the host');
  t.is((await world.status(host.address))?.phase, 'Ready');
});
