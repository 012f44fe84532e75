// The AWS kubelet's image credential provider (issue 15 item 7): the config the Linux workers' ignition
// carries is written to C:\k\credential-provider-config.yaml (provider names ending in .exe), the ECR
// plugin binary comes from the payload, the kubelet flags name both, and drift repair keeps them.
import test from 'ava';
import { apis, eventsAbout, NS, phaseIs, testWorld, until } from './world-fixture.js';
import { wmcoPlan } from './wmco-plan.test-helper.js';

const CONFIG = 'C:\\k\\credential-provider-config.yaml';
const PLUGIN = 'C:\\k\\ecr-credential-provider.exe';

test.serial('AWS: the credential provider config and plugin are written, published and kept', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-E' }], {
    platform: 'AWS',
    cloud: true,
    cloudProvider: 'external',
  });
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  const operator = await world.startOperator();
  const host = world.hosts.hosts[0]!;
  await until('Ready', phaseIs(world, host.address, 'Ready'), 90_000);
  const files = host.sim.model.files;
  const written = files.read(CONFIG)?.toString() ?? '';
  t.regex(written, /kind: CredentialProviderConfig/);
  t.regex(written, /- name: ecr-credential-provider\.exe\n/);
  const plugin = files.read(PLUGIN);
  t.truthy(plugin, 'the plugin binary from the payload');

  // The record of what this version installs names them too (what `kubectl get cm` shows).
  const cms = await apis(world).core.listNamespacedConfigMap({ namespace: NS });
  const services = cms.items.find((c) => c.metadata?.name?.startsWith('windows-services-'))?.data?.[
    'services'
  ];
  t.regex(services ?? '', /--image-credential-provider-config=C:\\\\k\\\\credential-provider-config\.yaml/);

  // `wmco plan` knows the file: nothing to do now, and an edited config shows up while the operator is down.
  const clean = await wmcoPlan(world);
  t.is(clean.code, 0, clean.stderr);
  t.regex(clean.stdout, /no changes/);
  await operator.stop();
  files.write(CONFIG, Buffer.from('providers: []\n'));
  const drifted = await wmcoPlan(world);
  t.regex(drifted.stdout, /place file C:\\k\\credential-provider-config\.yaml/, drifted.stdout);

  // Someone also deletes the plugin: drift repair puts both back, the kubelet keeps running.
  files.remove(PLUGIN);
  await world.startOperator('wmco-1');
  await until(
    'config and plugin back',
    () =>
      Promise.resolve(
        files.read(CONFIG)?.toString() === written && files.read(PLUGIN)?.equals(plugin!) ? true : undefined,
      ),
    30_000,
  );
  t.is(host.sim.model.scm.get('kubelet')?.state, 'running');
  const repaired = (await eventsAbout(world)).filter((e) => e.reason === 'DriftRepaired');
  t.true(
    repaired.some((e) => e.message.includes('credential-provider-config.yaml')),
    repaired.map((e) => e.message).join('\n'),
  );
});
