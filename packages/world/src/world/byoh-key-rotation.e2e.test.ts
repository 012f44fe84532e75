import { decryptUsername, publicKeyOf } from '@wmco/core/internal';
import { publicKeyHash } from '@wmco/core';
import { generateEd25519KeyPair } from '@wmco/sim';
import { eventsAbout, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';
import { engineTest } from './engine-test.test-helper.js';

const annotation = (name: string) => `windowsmachineconfig.openshift.io/${name}`;

engineTest(
  'a new private key re-keys BYOH nodes once the host accepts it, with a clear event before that',
  async (t, engine) => {
    const { world } = await testWorld([{ hostname: 'WIN-KEY' }], { hostEngine: engine });
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await world.startOperator();
    const host = world.hosts.hosts[0]!;
    await until('Ready', phaseIs(world, host.address, 'Ready'), 90_000);
    const oldHash = (await windowsNodes(world))[0]?.metadata?.annotations?.[annotation('pub-key-hash')];

    const next = generateEd25519KeyPair();
    await world.createPrivateKeySecret(next.private);
    const notAccepted = await until('PrivateKeyNotAccepted', async () =>
      (await eventsAbout(world)).find((e) => e.reason === 'PrivateKeyNotAccepted'),
    );
    t.regex(notAccepted.message, /administrators_authorized_keys/);
    t.is((await world.status(host.address))?.phase, 'Ready', 'the node keeps working meanwhile');
    t.is((await windowsNodes(world))[0]?.metadata?.annotations?.[annotation('pub-key-hash')], oldHash);

    host.sim.authorizeKeys([next.public]);
    const newHash = publicKeyHash(publicKeyOf(next.private));
    const node = await until('the new pub-key-hash', async () => {
      const n = (await windowsNodes(world))[0];
      return n?.metadata?.annotations?.[annotation('pub-key-hash')] === newHash ? n : undefined;
    });
    t.not(newHash, oldHash);
    t.is(
      decryptUsername(node.metadata?.annotations?.[annotation('username')] ?? '', next.private),
      'Administrator',
    );
    // The event follows the node patch; wait for it rather than race it.
    await until('the PrivateKeyRotated event', async () =>
      (await eventsAbout(world)).some((e) => e.reason === 'PrivateKeyRotated') ? true : undefined,
    );
    t.is(
      (await eventsAbout(world)).filter((e) => e.reason === 'PrivateKeyNotAccepted').length,
      1,
      'one event, not one per retry',
    );
  },
);
