import test from 'ava';
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import type { SimWorld } from './sim-world.js';
import {
  eventsAbout,
  testWorld,
  until,
  windowsNodes,
  joinAll,
  NO_DRIFT_POLL_MS,
  WATCHED_CHANGE_WAIT_MS,
} from './world-fixture.js';

const PROXY = { group: 'config.openshift.io', version: 'v1', plural: 'proxies', name: 'cluster' };
const WITH_PROXY = [
  'HTTPS_PROXY=http://proxy.example.com:3129',
  'HTTP_PROXY=http://proxy.example.com:3128',
  'NO_PROXY=.cluster.local,10.0.0.0/16',
];

async function setProxyStatus(world: SimWorld, status: Record<string, string>): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  const api = kc.makeApiClient(CustomObjectsApi);
  const current = (await api.getClusterCustomObject(PROXY)) as Record<string, unknown>;
  await api.replaceClusterCustomObjectStatus({ ...PROXY, body: { ...current, status } });
}

/** The environment each host's containerd and kubelet processes run with. */
function running(world: SimWorld): string[][] {
  return world.hosts.hosts.flatMap((h) =>
    ['containerd', 'kubelet'].map((s) => {
      const svc = h.sim.model.scm.get(s);
      return svc?.state === 'running' ? [...(svc.runEnvironment ?? [])].sort() : ['not running'];
    }),
  );
}

// No drift poll within the test: the proxy reaches the nodes through the Proxy watch.
test.serial(
  'the cluster proxy reaches every node’s services by a restart, one node at a time; cleared, it goes',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-A' }, { hostname: 'WIN-B' }], {
      driftRepairIntervalMs: NO_DRIFT_POLL_MS,
    });
    t.teardown(() => world.stop());
    await joinAll(world);
    t.deepEqual(running(world), [[], [], [], []], 'no proxy yet');
    const boots = world.hosts.hosts.map((h) => h.sim.model.lastBootTime.getTime());
    // A service start takes 300 ms from here on, so a restart is long enough to be seen by the sampler.
    for (const h of world.hosts.hosts) h.sim.model.scm.serviceStartMs = 300;

    // Sample which nodes have containerd or the kubelet down: never two at once (the budget allows one).
    let most = 0;
    let cordoned = false;
    const sampler = setInterval(() => {
      const down = world.hosts.hosts.filter((h) =>
        ['containerd', 'kubelet'].some((s) => h.sim.model.scm.get(s)?.state !== 'running'),
      ).length;
      most = Math.max(most, down);
      void windowsNodes(world).then((ns) => {
        if (ns.some((n) => n.spec?.unschedulable)) cordoned = true;
      });
    }, 5);
    t.teardown(() => clearInterval(sampler));

    const started = Date.now();
    await setProxyStatus(world, {
      httpProxy: 'http://proxy.example.com:3128',
      httpsProxy: 'http://proxy.example.com:3129',
      noProxy: '.cluster.local,10.0.0.0/16',
    });
    await until(
      'proxy on every service',
      () => Promise.resolve(running(world).every((e) => e.join() === WITH_PROXY.join()) ? true : undefined),
      WATCHED_CHANGE_WAIT_MS,
    );
    const setMs = Date.now() - started;
    t.log(`proxy set on every node's services in ${setMs} ms`);
    for (const h of world.hosts.hosts) {
      t.is(h.sim.model.envVars.get('http_proxy'), undefined, 'no machine variable');
      t.deepEqual(
        h.sim.model.scm.get('windows_exporter')?.runEnvironment,
        [],
        'only the services that use it',
      );
    }

    await setProxyStatus(world, {});
    await until(
      'proxy cleared',
      () => Promise.resolve(running(world).every((e) => e.length === 0) ? true : undefined),
      WATCHED_CHANGE_WAIT_MS,
    );
    for (const h of world.hosts.hosts) t.is(h.sim.model.scm.get('containerd')?.environment, undefined);

    clearInterval(sampler);
    t.log(`most nodes with services down at once: ${most}`);
    t.is(most, 1, 'one node at a time');
    t.false(cordoned, 'no node was cordoned');
    t.deepEqual(
      world.hosts.hosts.map((h) => h.sim.model.lastBootTime.getTime()),
      boots,
      'no reboot',
    );
    const repaired = (await eventsAbout(world)).filter((e) => e.reason === 'DriftRepaired');
    t.true(repaired.some((e) => e.message.includes('set the environment of service containerd')));
    t.true(repaired.some((e) => e.message.includes('clear the environment of service kubelet')));
  },
);
