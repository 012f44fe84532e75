import test from 'ava';
import { eventsAbout, phaseIs, testWorld, until } from './world-fixture.js';

test.serial('malformed entries each get one event and do not stop the good host', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-OK' }]);
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  const bad: Record<string, string> = {
    '::1': 'username=Administrator',
    '10.1.2.3': 'Administrator',
    '10.1.2.4': "username=adm'in",
    '10.1.2.5': 'username=admin;rm',
    '10.1.2.6': 'username=$(whoami)',
    'no-such-host.sim.internal': 'username=Administrator',
  };
  await world.setInstances({ ...Object.fromEntries([world.hosts.entry(0)]), ...bad });
  await world.startOperator();
  await until('the good host Ready', phaseIs(world, world.hosts.hosts[0]!.address, 'Ready'), 90_000);
  const events = (await eventsAbout(world)).filter((e) => e.reason === 'InstanceSetupFailure');
  for (const key of Object.keys(bad)) {
    t.is(events.filter((e) => e.message.includes(`"${key}"`)).length, 1, `one event for ${key}`);
  }
});

test.serial('the operator starts without the private key and waits for it with an event', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-K' }]);
  t.teardown(() => world.stop());
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await world.startOperator();
  await until('the missing-key event', async () =>
    (await eventsAbout(world)).some((e) => e.reason === 'PrivateKeyMissing') ? true : undefined,
  );
  await world.createPrivateKeySecret();
  await until('Ready once the key exists', phaseIs(world, world.hosts.hosts[0]!.address, 'Ready'), 90_000);
  t.pass();
});

test.serial(
  'a public key in cloud-private-key: an event with the fix, the entry listed with why; the right key joins it',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-PUB' }]);
    t.teardown(() => world.stop());
    const address = world.hosts.hosts[0]!.address;
    await world.createPrivateKeySecret(`${world.publicKey}\n`);
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await world.startOperator();
    const event = await until('the invalid-key event', async () =>
      (await eventsAbout(world)).find((e) => e.reason === 'PrivateKeyInvalid'),
    );
    t.is(event.type, 'Warning');
    t.regex(event.message, /cloud-private-key .* cannot be used: .*unencrypted private key/);
    const status = await until('the entry in status, with why it waits', async () => {
      const s = await world.status(address);
      return s?.lastError?.includes('cannot be used') ? s : undefined;
    });
    t.is(status.phase, 'Pending');
    await world.createPrivateKeySecret();
    await until('Ready once the key is usable', phaseIs(world, address, 'Ready'), 90_000);
    t.is((await world.status(address))?.lastError, undefined);
  },
);

test.serial(
  'a host that keeps failing keeps its last error and a count of failed attempts while it retries',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-REFUSING' }]);
    t.teardown(() => world.stop());
    const host = world.hosts.hosts[0]!;
    host.sim.faults.refuseAuthentication = true;
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await world.startOperator();
    // A second failure counted means the count (and the error) survived the retry's own phases.
    const failing = await until(
      'two failed attempts counted',
      async () => {
        const s = await world.status(host.address);
        return (s?.failedAttempts ?? 0) >= 2 ? s : undefined;
      },
      90_000,
    );
    t.regex(failing.lastError ?? '', /authentication/i);
    delete host.sim.faults.refuseAuthentication;
    const ready = await until(
      'Ready once the host accepts the key',
      phaseIs(world, host.address, 'Ready'),
      120_000,
    );
    t.is(ready.lastError, undefined, 'success clears the error');
    t.is(ready.failedAttempts, undefined);
  },
);

test.serial('a bad entry removed from windows-instances leaves wmco status at once', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-STAYS' }]);
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  const good = Object.fromEntries([world.hosts.entry(0)]);
  await world.setInstances({ ...good, '10.1.2.3': 'Administrator' });
  await world.startOperator();
  await until('the good host Ready', phaseIs(world, world.hosts.hosts[0]!.address, 'Ready'), 90_000);
  await until('the bad entry Failed', phaseIs(world, '10.1.2.3', 'Failed'));
  await world.setInstances(good);
  await until('the bad entry gone from status', async () =>
    (await world.status('10.1.2.3')) === undefined ? true : undefined,
  );
  t.is((await world.status(world.hosts.hosts[0]!.address))?.phase, 'Ready', 'the good host is untouched');
});
