import test from 'ava';
import { apis, testWorld, until } from './world-fixture.js';

// Issue 29: windows-user-data was not watched; deleted or edited, it stayed wrong (new Machines booted
// without the operator's key) until the private key changed or the operator restarted. Upstream restores
// it at once; so does this operator now.

const NS = 'openshift-machine-api';
const NAME = 'windows-user-data';

test('a deleted or edited windows-user-data Secret is put back at once', async (t) => {
  const { world } = await testWorld([], { platform: 'VSphere' });
  t.teardown(() => world.stop());
  const { core } = apis(world);
  const read = (): Promise<string | undefined> =>
    core
      .readNamespacedSecret({ name: NAME, namespace: NS })
      .then((s) => s.data?.['userData'])
      .catch(() => undefined);
  await world.createPrivateKeySecret();
  await world.startOperator();
  const original = await until('the operator writes windows-user-data', read, 60_000);

  await core.deleteNamespacedSecret({ name: NAME, namespace: NS });
  t.is(await until('put back after a delete', read, 60_000), original);

  const current = await core.readNamespacedSecret({ name: NAME, namespace: NS });
  await core.replaceNamespacedSecret({
    name: NAME,
    namespace: NS,
    body: {
      ...current,
      data: { userData: Buffer.from('<powershell>tampered</powershell>').toString('base64') },
    },
  });
  t.is(
    await until(
      'put back after an edit',
      async () => ((await read()) === original ? original : undefined),
      60_000,
    ),
    original,
  );
});
