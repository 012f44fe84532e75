// On a proxied cluster the Proxy object has the proxy in its status and OLM gives the operator the same
// variables. The join, the services ConfigMap keeper and drift repair must publish one and the same
// `windows-services-<version>`: with a cluster Proxy the proxy goes into the services' environments, not
// into machine variables. A join that published the operator's variables made the keeper (which watches
// the ConfigMap) put its own content back after every join, and every change gave each node a drift check.
import test from 'ava';
import { CustomObjectsApi, KubeConfig, Watch, type V1ConfigMap } from '@kubernetes/client-node';
import type { SimWorld } from './sim-world.js';
import { apis, NS, phaseIs, testWorld, until } from './world-fixture.js';

const TEN_MINUTES = 600_000;
const PROXY = { group: 'config.openshift.io', version: 'v1', plural: 'proxies', name: 'cluster' };
const VARIABLES = {
  HTTP_PROXY: 'http://proxy.example.com:3128',
  HTTPS_PROXY: 'http://proxy.example.com:3129',
  NO_PROXY: '.cluster.local,10.0.0.0/16',
};

function adminConfig(world: SimWorld): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  return kc;
}

async function setProxyStatus(world: SimWorld, status: Record<string, string>): Promise<void> {
  const api = adminConfig(world).makeApiClient(CustomObjectsApi);
  const current = (await api.getClusterCustomObject(PROXY)) as Record<string, unknown>;
  await api.replaceClusterCustomObjectStatus({ ...PROXY, body: { ...current, status } });
}

/** The content of every `windows-services-*` ConfigMap created from now on, in order. */
async function watchCreations(world: SimWorld): Promise<{ created: string[]; stop: () => void }> {
  const created: string[] = [];
  const req = await new Watch(adminConfig(world)).watch(
    `/api/v1/namespaces/${NS}/configmaps`,
    {},
    (type: string, cm: V1ConfigMap) => {
      if (type === 'ADDED' && cm.metadata?.name?.startsWith('windows-services-'))
        created.push(JSON.stringify(cm.data));
    },
    () => undefined,
  );
  return { created, stop: () => req.abort() };
}

async function servicesConfigMap(world: SimWorld): Promise<V1ConfigMap | undefined> {
  const list = await apis(world).core.listNamespacedConfigMap({ namespace: NS });
  return list.items.find((cm) => cm.metadata?.name?.startsWith('windows-services-'));
}

test.serial(
  'with the cluster proxy and the operator’s proxy both set, joins and the keeper publish one services ConfigMap',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-A' }, { hostname: 'WIN-B' }], {
      driftRepairIntervalMs: TEN_MINUTES,
      operatorProxyEnv: VARIABLES,
    });
    t.teardown(() => world.stop());
    await setProxyStatus(world, {
      httpProxy: VARIABLES.HTTP_PROXY,
      httpsProxy: VARIABLES.HTTPS_PROXY,
      noProxy: VARIABLES.NO_PROXY,
    });
    const watch = await watchCreations(world);
    t.teardown(() => watch.stop());
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
    await world.startOperator('wmco-0', { servicesResyncMs: TEN_MINUTES });
    for (const h of world.hosts.hosts)
      await until(`${h.address} Ready`, phaseIs(world, h.address, 'Ready'), 90_000);

    // Both joins have published by now (before Ready). The keeper answers a changed ConfigMap at once
    // through its watch; its content is the last one created once the watch has seen what is stored.
    const stored = await servicesConfigMap(world);
    await until('the watch saw the stored ConfigMap', () =>
      Promise.resolve(watch.created.at(-1) === JSON.stringify(stored?.data) ? true : undefined),
    );
    t.deepEqual(
      watch.created.map((c) => watch.created.indexOf(c)),
      watch.created.map((_, i) => i),
      `no content published twice (a flip between the join's and the keeper's); environmentVars of each: ${watch.created
        .map((c) => (JSON.parse(c) as Record<string, string>)['environmentVars'] ?? '(none)')
        .join(' | ')}`,
    );
    t.is(stored?.data?.['environmentVars'], undefined, 'the cluster proxy is no machine variable');
  },
);
