import test from 'ava';
import { join } from 'node:path';
import { CustomObjectsApi, KubeConfig, type V1Node } from '@kubernetes/client-node';
import { createWmcoCore, newRootContainer, type WmcoControllers } from '@wmco/core';
import { NODE_RECORD_LABEL, OPERATOR_STATUS_KEY } from '@wmco/core/internal';
import { loadBuiltinProviders } from '@wmco/operator';
import { lineLogger, WindowsHostList } from '@wmco/embedded-controller-example';
import type { SimWorld } from './sim-world.js';
import { applyWindowsHostCrd, WorldWindowsHosts } from './windows-host-fixture.js';
import { apis, NS, phaseIs, testWorld, until } from './world-fixture.js';

// One process runs windows-instances and an embedder's own source (WindowsHosts) in the same namespace,
// with the same key: each source joins its own host on its own queue and keeps its records and statuses
// under its own source. A configuration change reaches both nodes through the watches (drift checks are
// ten minutes apart), and each source removes only its own node.
const SOURCE = 'windows-hosts';
const TEN_MINUTES = 600_000;
const PROXY = { group: 'config.openshift.io', version: 'v1', plural: 'proxies', name: 'cluster' };

async function setClusterProxy(world: SimWorld, httpProxy: string): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  const api = kc.makeApiClient(CustomObjectsApi);
  const current = (await api.getClusterCustomObject(PROXY)) as Record<string, unknown>;
  await api.replaceClusterCustomObjectStatus({ ...PROXY, body: { ...current, status: { httpProxy } } });
}

function kubeletProxy(world: SimWorld, i: number, proxy: string): () => Promise<true | undefined> {
  const env = (): readonly string[] =>
    world.hosts.hosts[i]?.sim.model.scm.get('kubelet')?.runEnvironment ?? [];
  return () => Promise.resolve(env().includes(`HTTP_PROXY=${proxy}`) ? true : undefined);
}

async function start(
  world: SimWorld,
  lines: string[],
): Promise<{ controllers: WmcoControllers; stop: () => Promise<void> }> {
  const core = createWmcoCore({
    parent: newRootContainer(),
    providers: await loadBuiltinProviders(),
    platform: 'None',
  });
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(join(world.dir, 'operator.kubeconfig'));
  const logger = lineLogger({ level: 'debug', write: (l) => lines.push(l) });
  const stopping = new AbortController();
  const controllers = await core.controllers({
    kubeConfig,
    namespace: NS,
    logger,
    version: '0.1.0-both',
    payloadDir: world.payloadDir,
    sources: [{ id: SOURCE, hosts: new WindowsHostList(kubeConfig, NS, logger) }],
    machines: false,
    serviceMonitor: false,
    signal: stopping.signal,
    allowLoopbackInstances: true,
    driftRepairIntervalMs: TEN_MINUTES,
    hooks: {
      sshOverrides: (address) => world.hosts.sshOverrides(address),
      resolver: world.resolver,
      timings: { nodeRegistrationMs: 60_000, nodeReadyMs: 60_000, pollMs: 100, keyRetryMs: 500 },
      lifecycle: { drainRetryMs: 200, drainTimeoutMs: 30_000, upgradeRetryMs: 500, servicesResyncMs: 500 },
    },
  });
  await controllers.start();
  return {
    controllers,
    stop: async () => {
      await controllers.stop();
      stopping.abort();
      await core.dispose();
    },
  };
}

async function node(world: SimWorld, name: string): Promise<V1Node | undefined> {
  return apis(world)
    .core.readNode({ name })
    .catch(() => undefined);
}

/** `<node name> <source>` of each record, and `<address> <source>` of each instance status. */
async function bySource(world: SimWorld): Promise<{ records: string[]; statuses: string[] }> {
  const core = apis(world).core;
  const records = await core.listNamespacedConfigMap({
    namespace: NS,
    labelSelector: `${NODE_RECORD_LABEL}=true`,
  });
  const status = await core.readNamespacedConfigMap({ name: 'windows-instances-status', namespace: NS });
  const parse = (json: string | undefined): { source?: string; nodeName?: string } =>
    JSON.parse(json ?? '{}') as { source?: string; nodeName?: string };
  return {
    records: records.items
      .map((cm) => parse(cm.data?.['record.json']))
      .map((r) => `${r.nodeName} ${r.source}`)
      .sort(),
    statuses: Object.entries(status.data ?? {})
      .filter(([k]) => k !== OPERATOR_STATUS_KEY)
      .map(([k, v]) => `${k} ${parse(v).source}`)
      .sort(),
  };
}

test('windows-instances and an embedder’s own source in one process each join, reconfigure and remove only their own node', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-O' }, { hostname: 'WIN-E' }], {
    driftRepairIntervalMs: TEN_MINUTES,
  });
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  await applyWindowsHostCrd(world);
  const windowsHosts = new WorldWindowsHosts(world, NS);
  const [hostO, hostE] = [world.hosts.hosts[0]!, world.hosts.hosts[1]!];
  const lines: string[] = [];
  const both = await start(world, lines);
  t.teardown(() => both.stop());
  t.deepEqual(
    both.controllers.runnables.map((r) => r.name),
    ['node-maintenance', 'configuration-watches', 'byoh', `source/${SOURCE}`],
  );

  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await windowsHosts.create('win-e', hostE.address);
  await until('win-o Ready', phaseIs(world, hostO.address, 'Ready'), 90_000);
  const statusE = await until('WindowsHost win-e Ready', windowsHosts.phaseIs('win-e', 'Ready'), 90_000);
  t.is(statusE.nodeName, 'win-e');
  t.deepEqual(await bySource(world), {
    records: ['win-e source/windows-hosts', 'win-o windows-instances'],
    statuses: [`${hostE.address} ${SOURCE}`, `${hostO.address} byoh`].sort(),
  });

  // A configuration change requeues both sources' nodes at once (no drift check within the test).
  await setClusterProxy(world, 'http://proxy.example.com:3128');
  await until('the proxy on win-o', kubeletProxy(world, 0, 'http://proxy.example.com:3128'), 60_000);
  await until('the proxy on win-e', kubeletProxy(world, 1, 'http://proxy.example.com:3128'), 60_000);

  // Emptying windows-instances removes win-o only: win-e is the other source's.
  await world.setInstances({});
  await until(
    'win-o removed',
    async () => ((await node(world, 'win-o')) === undefined ? true : undefined),
    90_000,
  );
  // The removal forgets the record and then the status, after the Node: what is left is win-e's.
  const left = JSON.stringify({
    records: ['win-e source/windows-hosts'],
    statuses: [`${hostE.address} ${SOURCE}`],
  });
  await until('only win-e’s record and status left', async () =>
    JSON.stringify(await bySource(world)) === left ? true : undefined,
  );
  t.truthy(await node(world, 'win-e'), 'win-e stays');
  t.is((await windowsHosts.get('win-e'))?.status?.phase, 'Ready');

  // Deleting the WindowsHost removes win-e, and leaves nothing of either source.
  await windowsHosts.delete('win-e');
  await until(
    'win-e removed',
    async () => ((await node(world, 'win-e')) === undefined ? true : undefined),
    90_000,
  );
  await until(
    'nothing kept',
    async () => {
      const kept = await bySource(world);
      return kept.records.length + kept.statuses.length === 0 ? true : undefined;
    },
    30_000,
  );
  t.false(
    lines.some((l) => l.includes('NodeNotRecorded')),
    'neither source reported the other’s node',
  );
});
