import test from 'ava';
import { X509Certificate } from 'node:crypto';
import { CoreV1Api, CustomObjectsApi, KubeConfig, type V1ConfigMap } from '@kubernetes/client-node';
import { ClusterCa, MANAGED_CERTIFICATE_NAME, OPERATOR_NAMESPACE } from '@wmco/sim';
import type { SimWorld } from './sim-world.js';
import {
  phaseIs,
  testWorld,
  until,
  windowsNodes,
  NO_DRIFT_POLL_MS,
  WATCHED_CHANGE_WAIT_MS,
} from './world-fixture.js';

const PROXY = { group: 'config.openshift.io', version: 'v1', plural: 'proxies', name: 'cluster' };
const LABEL = 'config.openshift.io/inject-trusted-cabundle';
const thumbprint = (pem: string): string =>
  new X509Certificate(pem).fingerprint.replaceAll(':', '').toUpperCase();

function apis(world: SimWorld): { core: CoreV1Api; custom: CustomObjectsApi } {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  return { core: kc.makeApiClient(CoreV1Api), custom: kc.makeApiClient(CustomObjectsApi) };
}

async function trustedCa(world: SimWorld): Promise<V1ConfigMap | undefined> {
  return apis(world)
    .core.readNamespacedConfigMap({ name: 'trusted-ca', namespace: OPERATOR_NAMESPACE })
    .catch(() => undefined);
}

/** What the cluster network operator does to a labelled ConfigMap: it writes `ca-bundle.crt`. */
async function inject(world: SimWorld, bundle: string): Promise<void> {
  const cm = await trustedCa(world);
  if (!cm) throw new Error('trusted-ca is missing');
  await apis(world).core.replaceNamespacedConfigMap({
    name: 'trusted-ca',
    namespace: OPERATOR_NAMESPACE,
    body: { ...cm, data: { 'ca-bundle.crt': bundle } },
  });
}

/** Each host's Root store: the thumbprints with the operator's mark, and those without. */
function stores(world: SimWorld): { managed: string[]; other: string[] }[] {
  return world.hosts.hosts.map((h) => {
    const all = h.sim.model.rootStore.thumbprints();
    const mine = (t: string): boolean =>
      h.sim.model.rootStore.get(t)?.friendlyName === MANAGED_CERTIFICATE_NAME;
    return { managed: all.filter(mine), other: all.filter((t) => !mine(t)) };
  });
}

// No drift poll within the test: the bundle reaches the nodes through the trusted-ca watch.
test.serial(
  'a CA bundle of two certificates ends in every node’s Root store; removing one removes exactly it',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-A' }, { hostname: 'WIN-B' }], {
      driftRepairIntervalMs: NO_DRIFT_POLL_MS,
    });
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
    // A root an admin put on the hosts before they joined: never the operator's to remove.
    const admin = (await ClusterCa.create('admin-root')).certPem;
    for (const h of world.hosts.hosts) h.sim.model.rootStore.add(admin, 'admin');
    await world.startOperator();
    for (const h of world.hosts.hosts)
      await until(`${h.address} Ready`, phaseIs(world, h.address, 'Ready'), 90_000);

    const created = await until('trusted-ca created', () => trustedCa(world), 20_000);
    t.is(created.metadata?.labels?.[LABEL], 'true');

    const a = (await ClusterCa.create('proxy-ca-a')).certPem;
    const b = (await ClusterCa.create('proxy-ca-b')).certPem;
    const [ta, tb, tAdmin] = [thumbprint(a), thumbprint(b), thumbprint(admin)];
    // The trusted CA only goes to the nodes when the cluster has a proxy (reference §1.10).
    const { custom } = apis(world);
    const proxy = (await custom.getClusterCustomObject(PROXY)) as Record<string, unknown>;
    await custom.replaceClusterCustomObjectStatus({
      ...PROXY,
      body: { ...proxy, status: { httpsProxy: 'http://proxy.example.com:3129' } },
    });
    await inject(world, `${a}${b}`);
    let started = Date.now();
    const both = [ta, tb].sort();
    await until(
      'both certificates in every Root store',
      () => Promise.resolve(stores(world).every((s) => s.managed.join() === both.join()) ? true : undefined),
      WATCHED_CHANGE_WAIT_MS,
    );
    t.log(`two certificates on every node in ${Date.now() - started} ms`);
    for (const h of world.hosts.hosts)
      t.is(h.sim.model.files.read('C:\\k\\ca-bundle.crt')?.toString(), `${a}${b}`);
    t.deepEqual(
      stores(world).map((s) => s.other),
      [[tAdmin], [tAdmin]],
    );

    await inject(world, a);
    started = Date.now();
    await until(
      'b removed from every Root store',
      () => Promise.resolve(stores(world).every((s) => s.managed.join() === ta) ? true : undefined),
      WATCHED_CHANGE_WAIT_MS,
    );
    t.log(`one certificate removed on every node in ${Date.now() - started} ms`);
    t.deepEqual(stores(world), [
      { managed: [ta], other: [tAdmin] },
      { managed: [ta], other: [tAdmin] },
    ]);
    for (const n of await windowsNodes(world)) t.falsy(n.spec?.unschedulable, 'nothing was drained');

    // Its label removed, the label comes back; the injected data stays.
    const labelled = (await trustedCa(world))!;
    await apis(world).core.replaceNamespacedConfigMap({
      name: 'trusted-ca',
      namespace: OPERATOR_NAMESPACE,
      body: { ...labelled, metadata: { ...labelled.metadata, labels: { team: 'x' } } },
    });
    const relabelled = await until(
      'label put back',
      async () => {
        const cm = await trustedCa(world);
        return cm?.metadata?.labels?.[LABEL] === 'true' ? cm : undefined;
      },
      20_000,
    );
    t.deepEqual(relabelled.metadata?.labels, { team: 'x', [LABEL]: 'true' });
    t.is(relabelled.data?.['ca-bundle.crt'], a);

    // Deleted, the ConfigMap comes back with its label.
    await apis(world).core.deleteNamespacedConfigMap({ name: 'trusted-ca', namespace: OPERATOR_NAMESPACE });
    const back = await until(
      'trusted-ca re-created',
      async () => {
        const cm = await trustedCa(world);
        return cm?.metadata?.labels?.[LABEL] === 'true' && cm.data === undefined ? cm : undefined;
      },
      20_000,
    );
    t.is(back.metadata?.name, 'trusted-ca');
  },
);
