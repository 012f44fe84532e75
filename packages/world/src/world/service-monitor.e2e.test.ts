import test from 'ava';
import { isDeepStrictEqual } from 'node:util';
import { ApiextensionsV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { windowsExporterServiceMonitor } from '@wmco/core/internal';
import type { SimWorld } from './sim-world.js';
import { apis, eventsAbout, NS, testWorld, until } from './world-fixture.js';

const SM = { group: 'monitoring.coreos.com', version: 'v1', plural: 'servicemonitors', namespace: NS };
const LABEL = 'openshift.io/cluster-monitoring';

function custom(world: SimWorld): CustomObjectsApi {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  return kc.makeApiClient(CustomObjectsApi);
}

async function monitor(world: SimWorld): Promise<Record<string, unknown> | undefined> {
  return (await custom(world)
    .getNamespacedCustomObject({ ...SM, name: 'windows-exporter' })
    .catch(() => undefined)) as Record<string, unknown> | undefined;
}

async function setLabel(world: SimWorld, value: string | undefined): Promise<void> {
  const { core } = apis(world);
  const ns = await core.readNamespace({ name: NS });
  const labels = { ...(ns.metadata?.labels ?? {}) };
  if (value === undefined) delete labels[LABEL];
  else labels[LABEL] = value;
  await core.replaceNamespace({ name: NS, body: { ...ns, metadata: { ...ns.metadata, labels } } });
}

const reasons = async (world: SimWorld): Promise<string[]> =>
  (await eventsAbout(world)).map((e) => `${e.type} ${e.reason}`).filter((r) => r.includes('ServiceMonitor'));

test.serial(
  'the windows-exporter ServiceMonitor exists exactly while the namespace has the monitoring label',
  async (t) => {
    const { world } = await testWorld([]);
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    await world.startOperator();

    // The seeded namespace has openshift.io/cluster-monitoring=true (as deploy/00-namespace.yaml).
    const created = await until('ServiceMonitor created', () => monitor(world), 30_000);
    t.deepEqual(created['spec'], windowsExporterServiceMonitor(NS)['spec']);
    t.deepEqual((await reasons(world)).slice(-1), ['Normal ServiceMonitorCreated']);

    await setLabel(world, undefined);
    await until('ServiceMonitor deleted', async () => ((await monitor(world)) ? undefined : true), 30_000);
    await until(
      'Warning event',
      async () => ((await reasons(world)).includes('Warning ServiceMonitorDeleted') ? true : undefined),
      30_000,
    );

    // "false" is not "true": still none.
    await setLabel(world, 'false');
    await new Promise((r) => setTimeout(r, 1500));
    t.is(await monitor(world), undefined);

    await setLabel(world, 'true');
    await until('ServiceMonitor created again', () => monitor(world), 30_000);

    // Someone deletes it while monitoring is on: it comes back.
    await custom(world).deleteNamespacedCustomObject({ ...SM, name: 'windows-exporter' });
    await until('ServiceMonitor put back', () => monitor(world), 30_000);
    // A repeated event is one Event with a count (as client-go's recorder aggregates them).
    // Events about the Namespace (cluster-scoped) are in `default`, as the API server requires.
    const times = async (reason: string): Promise<number> =>
      (await apis(world).core.listNamespacedEvent({ namespace: 'default' })).items
        .filter((e) => e.reason === reason && e.involvedObject.kind === 'Namespace')
        .reduce((n, e) => n + (e.count ?? 1), 0);
    await until(
      'three creations recorded',
      async () => ((await times('ServiceMonitorCreated')) === 3 ? true : undefined),
      10_000,
    );
    t.is(await times('ServiceMonitorDeleted'), 1);
    const ev = (await apis(world).core.listNamespacedEvent({ namespace: 'default' })).items.find(
      (e) => e.reason === 'ServiceMonitorDeleted',
    );
    t.is(ev?.involvedObject.name, NS);
    t.truthy(ev?.involvedObject.uid, 'kubectl describe namespace lists it');
  },
);

test.serial('an edited ServiceMonitor is put back to the operator definition', async (t) => {
  const { world } = await testWorld([]);
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  await world.startOperator();
  const sm = await until('ServiceMonitor created', () => monitor(world), 30_000);
  const spec = sm['spec'] as Record<string, unknown>;
  await custom(world).replaceNamespacedCustomObject({
    ...SM,
    name: 'windows-exporter',
    body: { ...sm, spec: { ...spec, endpoints: [] } },
  });
  await until(
    'spec restored',
    async () => {
      const now = await monitor(world);
      // Compared as values: the API server returns a custom resource's keys sorted, as Go encodes maps.
      return isDeepStrictEqual(now?.['spec'], windowsExporterServiceMonitor(NS)['spec']) ? true : undefined;
    },
    30_000,
  );
  t.true((await reasons(world)).includes('Normal ServiceMonitorUpdated'));
});

test.serial('a cluster without the monitoring API gets one Warning and a running operator', async (t) => {
  const { world } = await testWorld([]);
  t.teardown(() => world.stop());
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  await kc
    .makeApiClient(ApiextensionsV1Api)
    .deleteCustomResourceDefinition({ name: 'servicemonitors.monitoring.coreos.com' });
  await world.createPrivateKeySecret();
  const rt = await world.startOperator();
  const failed = await until(
    'ServiceMonitorFailed',
    async () => (await eventsAbout(world)).find((e) => e.reason === 'ServiceMonitorFailed'),
    30_000,
  );
  t.is(failed.type, 'Warning');
  t.regex(failed.message, /Cannot keep ServiceMonitor/);
  t.true(rt.leading);
});
