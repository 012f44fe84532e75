// The cloud's part of a BYOH join when the cloud is not kind (issue 12 part B item 1): no credentials,
// throttling, and a host whose reported name the cloud contradicts.
import test from 'ava';
import { eventsAbout, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';
import { engineTest } from './engine-test.test-helper.js';
import { OPERATOR_NAMESPACE } from '@wmco/sim';
import { MINTED_CREDENTIALS_SECRET as MINTED } from '@wmco/core/provider';
import { deleteCredentialsRequest } from './cloud-credentials.test-helper.js';

const HOSTS = [{ hostname: 'WIN-C1' }, { hostname: 'WIN-C2' }];

engineTest('AWS without credentials: both hosts join, with one warning event', async (t, engine) => {
  const { world } = await testWorld(HOSTS, {
    platform: 'AWS',
    cloud: true,
    cloudTagging: 'apply',
    hostEngine: engine,
  });
  t.teardown(() => world.stop());
  // No minted Secret (its CredentialsRequest gone first, so the cloud credential operator does not write
  // it again), and no root Secret either.
  await deleteCredentialsRequest(world, 'windows-machine-config-operator-aws');
  await world.admin().deleteNamespacedSecret({ name: MINTED, namespace: OPERATOR_NAMESPACE });
  await world.admin().deleteNamespacedSecret({ name: 'aws-creds', namespace: 'kube-system' });
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
  await world.startOperator();
  for (const h of world.hosts.hosts)
    await until(`${h.address} Ready`, phaseIs(world, h.address, 'Ready'), 90_000);
  const warnings = (await eventsAbout(world)).filter((e) => e.type === 'Warning');
  t.deepEqual(
    warnings.map((e) => e.reason),
    ['CloudNotConfigured'],
  );
  t.regex(
    warnings[0]?.message ?? '',
    /Secret openshift-windows-machine-config-operator\/windows-machine-config-operator-cloud-credentials not found \(minted by the cloud credential operator from CredentialsRequest openshift-cloud-credential-operator\/windows-machine-config-operator-aws\)/,
  );
  t.is(world.cloud?.faults.calls.length, 0, 'the cloud was never called without credentials');
});

test.serial(
  'AWS throttling: the SDK retries, then the step; the join neither fails nor skips the tag',
  async (t) => {
    const { world } = await testWorld(HOSTS.slice(0, 1), {
      platform: 'AWS',
      cloud: true,
      cloudTagging: 'apply',
    });
    t.teardown(() => world.stop());
    const cloud = world.cloud!;
    // More than the SDK's 5 attempts: the first step attempt gives up throttled, the second gets through.
    cloud.faults.inject('throttle', { operation: 'DescribeInstances', times: 6 });
    cloud.faults.inject('throttle', { operation: 'CreateTags', times: 2 });
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await world.startOperator();
    const address = world.hosts.hosts[0]!.address;
    await until('Ready', phaseIs(world, address, 'Ready'), 90_000);
    t.true(cloud.faults.count('DescribeInstances') >= 7, `${cloud.faults.count('DescribeInstances')} calls`);
    t.true(cloud.faults.count('CreateTags') >= 3);
    const node = (await windowsNodes(world))[0];
    t.regex(
      node?.metadata?.annotations?.['windowsmachineconfig.openshift.io/cloud-applied-tags'] ?? '',
      /shared/,
    );
    t.deepEqual(
      (await eventsAbout(world)).filter((e) => e.type === 'Warning'),
      [],
    );
  },
);

test.serial('GCP: a host reporting a name its instance does not have is refused with an event', async (t) => {
  const { world } = await testWorld(
    [
      { hostname: 'WIN-C1' },
      // The host claims a name (through what it says its metadata service answered) that GCE does not give it.
      { hostname: 'WIN-C2', metadataHostname: 'win-other.us-central1-a.c.wmco-sim-project.internal' },
    ],
    { platform: 'GCP', cloud: true },
  );
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
  await world.startOperator();
  const [good, bad] = world.hosts.hosts;
  await until('the good host Ready', phaseIs(world, good!.address, 'Ready'), 90_000);
  const failed = await until('the impostor failed', phaseIs(world, bad!.address, 'Failed'), 90_000);
  t.regex(failed.lastError ?? '', /cloud names instance .* win-c2\./);
  const events = await eventsAbout(world);
  t.true(
    events.some(
      (e) =>
        e.reason === 'InstanceSetupFailure' &&
        e.message.includes(bad!.address) &&
        e.message.includes('cloud names'),
    ),
  );
  t.deepEqual(
    (await windowsNodes(world)).map((n) => n.metadata?.name),
    ['win-c1.us-central1-a.c.wmco-sim-project.internal'],
  );
  t.false(
    bad!.sim.model.scm.all().some((s) => s.name === 'kubelet' && s.state === 'running'),
    'the impostor never ran a kubelet',
  );
});
