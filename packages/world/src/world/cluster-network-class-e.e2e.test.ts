// Issue 29, item 6: a cluster network in class E (240.0.0.0/4) is refused end to end, as upstream's start-up
// refuses it (exit 1): the operator does not start, says which network in a Warning event on its Deployment
// before it stops, and no listed host is touched.
import test from 'ava';
import { CustomObjectsApi, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { StartupError } from '@wmco/operator';
import { statusText } from './mixed-world.js';
import { apis, NS, testWorld, windowsNodes } from './world-fixture.js';

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

test('a class E cluster network stops the operator at start with its CIDR named in an event, and no host is joined', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-E' }]);
  t.teardown(() => world.stop());
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  await kc.makeApiClient(CustomObjectsApi).patchClusterCustomObjectStatus(
    {
      group: 'config.openshift.io',
      version: 'v1',
      plural: 'networks',
      name: 'cluster',
      body: { status: { clusterNetwork: [{ cidr: '240.10.0.0/14', hostPrefix: 23 }] } },
    },
    mergePatch,
  );
  const host = world.hosts.hosts[0]!;
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  const err = await t.throwsAsync(world.startOperator(), { instanceOf: StartupError });
  t.is(
    err.message,
    'the cluster is not supported: cluster network 240.10.0.0/14 uses class E addresses (240.0.0.0/4)',
  );
  const events = (await apis(world).core.listNamespacedEvent({ namespace: NS })).items.filter(
    (e) => e.reason === 'ClusterNotSupported',
  );
  t.deepEqual(
    events.map((e) => [e.type, e.involvedObject.kind, e.involvedObject.name, e.message]),
    [['Warning', 'Deployment', 'windows-machine-config-operator', err.message]],
  );
  // Said where admins read the operator's health, though the operator exits.
  const text = await statusText(world);
  t.regex(text, /OPERATOR .*Available=False .*Degraded=True/);
  t.regex(
    text,
    /ClusterSupported=False \(ClusterNotSupported\): the cluster is not supported: cluster network 240\.10\.0\.0\/14 uses class E/,
  );
  t.is(host.sim.stats.connectionsAccepted, 0, 'no SSH connection to the listed host');
  t.deepEqual(host.sim.model.scm.all(), []);
  t.deepEqual(await windowsNodes(world), []);
});
