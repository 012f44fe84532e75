import test, { type ExecutionContext } from 'ava';
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { logOnFailure } from './log-on-failure.test-helper.js';
import { settled } from './machine-wait.js';
import { hasCloud } from './machine-platforms.js';
import type { SimWorld } from './sim-world.js';
import { testWorld, until } from './world-fixture.js';

// Issue 26: cluster configuration changes reach Machine nodes through the configuration watches, as they
// reach BYOH nodes, not at the next drift poll. The poll is set to an hour: only the watch path can pass.

const TEST_MS = 150_000;
const PROXY = { group: 'config.openshift.io', version: 'v1', plural: 'proxies', name: 'cluster' };
const WITH_PROXY = ['HTTPS_PROXY=http://proxy.example.com:3129', 'HTTP_PROXY=http://proxy.example.com:3128'];

async function setProxyStatus(world: SimWorld, status: Record<string, string>): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  const api = kc.makeApiClient(CustomObjectsApi);
  const current = (await api.getClusterCustomObject(PROXY)) as Record<string, unknown>;
  await api.replaceClusterCustomObjectStatus({ ...PROXY, body: { ...current, status } });
}

/** The environment the Machine host's containerd runs with, or undefined while it is not running. */
function containerdEnv(world: SimWorld, ip: string): string | undefined {
  const svc = world.machineHost(ip)?.model.scm.get('containerd');
  return svc?.state === 'running' ? [...(svc.runEnvironment ?? [])].sort().join(' ') : undefined;
}

async function proxyReachesMachine(t: ExecutionContext, platform: string): Promise<void> {
  t.timeout(TEST_MS);
  const { world, logs } = await testWorld([], {
    platform,
    cloud: hasCloud(platform),
    driftRepairIntervalMs: 3_600_000,
  });
  t.teardown(() => world.stop());
  await logOnFailure(t, logs, async () => {
    await world.createPrivateKeySecret();
    await world.startOperator();
    await world.machineApi().createMachineSet({ name: 'win', replicas: 1, platform });
    const [m] = await settled(world, 'win', 1);
    const ip = m?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
    t.is(containerdEnv(world, ip), '', 'no proxy yet');
    await setProxyStatus(world, {
      httpProxy: 'http://proxy.example.com:3128',
      httpsProxy: 'http://proxy.example.com:3129',
    });
    const started = Date.now();
    await until(
      'the proxy on the Machine node’s containerd',
      () => Promise.resolve(containerdEnv(world, ip) === WITH_PROXY.join(' ') ? true : undefined),
      60_000,
    );
    t.log(`${platform}: proxy on the Machine node in ${Date.now() - started} ms (drift poll: 1 h)`);
    await setProxyStatus(world, {});
    await until('the proxy cleared', () =>
      Promise.resolve(containerdEnv(world, ip) === '' ? true : undefined),
    );
    t.pass();
  });
}

for (const platform of ['AWS', 'VSphere'])
  test.serial(
    `${platform}: a proxy change reaches a Machine node through the watch, not the drift poll`,
    (t) => proxyReachesMachine(t, platform),
  );
