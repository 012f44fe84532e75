import test from 'ava';
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { eventsAbout, phaseIs, testWorld, until } from './world-fixture.js';

test.serial('an invalid IDMS/ITMS entry is skipped with one event each; the valid ones apply', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-MIRROR' }]);
  t.teardown(() => world.stop());
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  const custom = kc.makeApiClient(CustomObjectsApi);
  const create = (kind: string, name: string, field: string, entries: unknown[]): Promise<unknown> =>
    custom.createClusterCustomObject({
      group: 'config.openshift.io',
      version: 'v1',
      plural: `${kind.toLowerCase()}s`,
      body: { apiVersion: 'config.openshift.io/v1', kind, metadata: { name }, spec: { [field]: entries } },
    });
  await create('ImageDigestMirrorSet', 'idms-mixed', 'imageDigestMirrors', [
    { source: 'quay.io/org', mirrors: ['mirror.sim.internal:5000/org'] },
    { source: '*.wild.example', mirrors: ['mirror.sim.internal:5000/wild'] },
    { source: 'registry.example', mirrors: ['mirror.sim.internal:5000/r'], mirrorSourcePolicy: 'Sometimes' },
  ]);
  await create('ImageTagMirrorSet', 'itms-bad', 'imageTagMirrors', [
    { source: 'docker.io/library', mirrors: ['m.sim.internal/lib"\n[host."https://evil"]'] },
  ]);
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await world.startOperator();
  const host = world.hosts.hosts[0]!;
  await until('the host Ready', phaseIs(world, host.address, 'Ready'), 90_000);

  const files = host.sim.model.files;
  const good = files.read('C:\\k\\containerd\\registries\\quay.io\\hosts.toml')?.toString('utf8') ?? '';
  t.regex(good, /mirror\.sim\.internal:5000/);
  const dirs = files.list('C:\\k\\containerd\\registries').map((d) => d.name);
  t.deepEqual(dirs, ['quay.io'], 'only the valid entry has a hosts directory');

  const invalid = (await eventsAbout(world)).filter((e) => e.reason === 'InvalidMirrorEntry');
  t.is(invalid.length, 3, invalid.map((e) => e.message).join('\n'));
  t.true(invalid.some((e) => /ImageDigestMirrorSet idms-mixed entry 1: .*wildcard/.test(e.message)));
  t.true(
    invalid.some((e) =>
      /idms-mixed entry 2: unknown mirrorSourcePolicy "Sometimes"; skipped/.test(e.message),
    ),
  );
  t.true(invalid.some((e) => /ImageTagMirrorSet itms-bad entry 0: .*not allowed/.test(e.message)));
});
