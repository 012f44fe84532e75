import test from 'ava';
import { generateEd25519KeyPair } from '@wmco/sim';
import { statusText } from './mixed-world.js';
import { eventsAbout, joinAll, phaseIs, testWorld, until } from './world-fixture.js';

interface Condition {
  readonly type: string;
  readonly message: string;
}

/** The status's condition of `type` (read loosely: the test compiles, and fails, without the fields). */
const conditionOf = (s: object | undefined, type: string): Condition | undefined =>
  (s as { conditions?: readonly Condition[] } | undefined)?.conditions?.find((c) => c.type === type);
const nextRetryOf = (s: object | undefined): string | undefined =>
  (s as { nextRetry?: string } | undefined)?.nextRetry;

test.serial('a failed host says when it is tried again, and wmco status shows it', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-RETRY' }]);
  t.teardown(() => world.stop());
  const host = world.hosts.hosts[0]!;
  host.sim.faults.refuseAuthentication = true;
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await world.startOperator();
  const failed = await until(
    'Failed with its next retry',
    async () => {
      const s = await world.status(host.address);
      return s?.phase === 'Failed' && nextRetryOf(s) !== undefined ? s : undefined;
    },
    90_000,
  );
  t.true(Date.parse(nextRetryOf(failed)!) >= Date.parse(failed.since), 'the retry comes after the failure');
  t.regex(failed.lastError ?? '', /authentication/i);
  // The backoff grows with each failure: wait for wmco status to show one while the host is between attempts.
  await until(
    'wmco status showing the next retry',
    async () => ((await statusText(world)).includes('next retry in') ? true : undefined),
    90_000,
  );
  delete host.sim.faults.refuseAuthentication;
  const ready = await until('Ready', phaseIs(world, host.address, 'Ready'), 120_000);
  t.is(nextRetryOf(ready), undefined, 'success clears the next retry');
});

test.serial(
  'a changed username= of a joined entry is reported as ignored (event and status) until it is reverted',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-USER' }]);
    t.teardown(() => world.stop());
    await joinAll(world);
    const [key, value] = world.hosts.entry(0);
    const address = world.hosts.hosts[0]!.address;
    await world.setInstances({ [key]: 'username=someone-else' });
    const event = await until('the InstanceChangeIgnored event', async () =>
      (await eventsAbout(world)).find((e) => e.reason === 'InstanceChangeIgnored'),
    );
    t.is(event.type, 'Warning');
    t.regex(
      event.message,
      /username changed from "Administrator" to "someone-else".*ignored.*remove the entry/,
    );
    const status = await until('the ChangeIgnored condition', async () => {
      const s = await world.status(address);
      return conditionOf(s, 'ChangeIgnored') ? s : undefined;
    });
    t.is(status.phase, 'Ready', 'the node keeps running with the user it joined with');
    t.regex(await statusText(world), /ChangeIgnored/);
    await world.setInstances({ [key]: value });
    await until('the condition gone once reverted', async () =>
      conditionOf(await world.status(address), 'ChangeIgnored') === undefined ? true : undefined,
    );
    t.is(
      (await eventsAbout(world)).filter((e) => e.reason === 'InstanceChangeIgnored').length,
      1,
      'said once, not once per reconcile',
    );
  },
);

test.serial(
  'a new private key is shown per node: re-keyed nodes clear, the others pending until their host accepts it',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-K1' }, { hostname: 'WIN-K2' }]);
    t.teardown(() => world.stop());
    await joinAll(world);
    const [first, second] = world.hosts.hosts;
    const next = generateEd25519KeyPair();
    first!.sim.authorizeKeys([next.public]);
    await world.createPrivateKeySecret(next.private);
    const pending = await until('the second node pending', async () =>
      conditionOf(await world.status(second!.address), 'PrivateKeyPending'),
    );
    t.regex(pending.message, /administrators_authorized_keys/);
    await until('the first node re-keyed', async () =>
      (await eventsAbout(world)).some(
        (e) => e.reason === 'PrivateKeyRotated' && e.message.includes(first!.address),
      )
        ? true
        : undefined,
    );
    t.is(conditionOf(await world.status(first!.address), 'PrivateKeyPending'), undefined);
    const text = await statusText(world);
    // The node's row of the table (SOURCE ADDRESS ...), not an operator condition above it that names it.
    const line = (address: string): string =>
      text.split('\n').find((l) => l.split(/\s+/)[1] === address) ?? '';
    t.regex(line(second!.address), /PrivateKeyPending/);
    t.notRegex(line(first!.address), /PrivateKeyPending/);
    second!.sim.authorizeKeys([next.public]);
    await until('the second node re-keyed', async () =>
      conditionOf(await world.status(second!.address), 'PrivateKeyPending') === undefined ? true : undefined,
    );
    t.notRegex(await statusText(world), /PrivateKeyPending/);
  },
);
