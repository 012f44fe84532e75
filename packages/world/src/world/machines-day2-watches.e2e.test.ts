import test, { type ExecutionContext } from 'ava';
import { X509Certificate } from 'node:crypto';
import { CoreV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { ClusterCa, MANAGED_CERTIFICATE_NAME, OPERATOR_NAMESPACE } from '@wmco/sim';
import { logOnFailure } from './log-on-failure.test-helper.js';
import { settled } from './machine-wait.js';
import { hasCloud } from './machine-platforms.js';
import type { SimWorld } from './sim-world.js';
import { testWorld, until, NO_DRIFT_POLL_MS, WATCHED_CHANGE_WAIT_MS } from './world-fixture.js';

// Issue 26: cluster configuration changes (proxy, trusted CA, registry mirrors) reach Machine nodes through
// the configuration watches, as they reach BYOH nodes, not at the next drift poll. The poll is set past the
// test's end: only the watch path can pass.

const TEST_MS = 240_000;
const PROXY = { group: 'config.openshift.io', version: 'v1', plural: 'proxies', name: 'cluster' };
const IDMS = { group: 'config.openshift.io', version: 'v1', plural: 'imagedigestmirrorsets' };
const WITH_PROXY = ['HTTPS_PROXY=http://proxy.example.com:3129', 'HTTP_PROXY=http://proxy.example.com:3128'];
const HOSTS_TOML = 'C:\\k\\containerd\\registries\\src.example.com\\hosts.toml';

function apis(world: SimWorld): { core: CoreV1Api; custom: CustomObjectsApi } {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  return { core: kc.makeApiClient(CoreV1Api), custom: kc.makeApiClient(CustomObjectsApi) };
}

async function setProxyStatus(world: SimWorld, status: Record<string, string>): Promise<void> {
  const { custom } = apis(world);
  const current = (await custom.getClusterCustomObject(PROXY)) as Record<string, unknown>;
  await custom.replaceClusterCustomObjectStatus({ ...PROXY, body: { ...current, status } });
}

/** What the cluster network operator does to the labelled `trusted-ca` ConfigMap: it writes the bundle. */
async function injectCaBundle(world: SimWorld, bundle: string): Promise<void> {
  const { core } = apis(world);
  const cm = await until('trusted-ca created', () =>
    core
      .readNamespacedConfigMap({ name: 'trusted-ca', namespace: OPERATOR_NAMESPACE })
      .catch(() => undefined),
  );
  await core.replaceNamespacedConfigMap({
    name: 'trusted-ca',
    namespace: OPERATOR_NAMESPACE,
    body: { ...cm, data: { 'ca-bundle.crt': bundle } },
  });
}

/** The environment the Machine host's containerd runs with, or undefined while it is not running. */
function containerdEnv(world: SimWorld, ip: string): string | undefined {
  const svc = world.machineHost(ip)?.model.scm.get('containerd');
  return svc?.state === 'running' ? [...(svc.runEnvironment ?? [])].sort().join(' ') : undefined;
}

/** The thumbprints the operator put in the Machine host's Root store. */
function managedRoots(world: SimWorld, ip: string): string[] {
  const store = world.machineHost(ip)?.model.rootStore;
  if (!store) return [];
  return store.thumbprints().filter((t) => store.get(t)?.friendlyName === MANAGED_CERTIFICATE_NAME);
}

async function reaches(what: string, ok: () => boolean): Promise<number> {
  const started = Date.now();
  await until(what, () => Promise.resolve(ok() ? true : undefined), WATCHED_CHANGE_WAIT_MS);
  return Date.now() - started;
}

async function changesReachMachine(t: ExecutionContext, platform: string): Promise<void> {
  t.timeout(TEST_MS);
  const { world, logs } = await testWorld([], {
    platform,
    cloud: hasCloud(platform),
    driftRepairIntervalMs: NO_DRIFT_POLL_MS,
  });
  t.teardown(() => world.stop());
  await logOnFailure(t, logs, async () => {
    await world.createPrivateKeySecret();
    await world.startOperator();
    await world.machineApi().createMachineSet({ name: 'win', replicas: 1, platform });
    const [m] = await settled(world, 'win', 1);
    const ip = m?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
    const host = world.machineHost(ip);
    if (!host) throw new Error(`no simulated host at ${ip}`);
    t.is(containerdEnv(world, ip), '', 'no proxy yet');
    t.deepEqual(managedRoots(world, ip), [], 'no trusted CA yet');
    t.is(host.model.files.read(HOSTS_TOML), undefined, 'no mirror yet');

    await setProxyStatus(world, {
      httpProxy: 'http://proxy.example.com:3128',
      httpsProxy: 'http://proxy.example.com:3129',
    });
    const proxyMs = await reaches(
      'the proxy on the Machine node’s containerd',
      () => containerdEnv(world, ip) === WITH_PROXY.join(' '),
    );

    // The trusted CA goes to the nodes only when the cluster has a proxy (reference §1.10).
    const ca = (await ClusterCa.create('proxy-ca')).certPem;
    const thumbprint = new X509Certificate(ca).fingerprint.replaceAll(':', '').toUpperCase();
    await injectCaBundle(world, ca);
    const caMs = await reaches(
      'the trusted CA in the Machine node’s Root store',
      () => managedRoots(world, ip).join() === thumbprint,
    );

    await apis(world).custom.createClusterCustomObject({
      ...IDMS,
      body: {
        apiVersion: 'config.openshift.io/v1',
        kind: 'ImageDigestMirrorSet',
        metadata: { name: 'mirror-a' },
        spec: {
          imageDigestMirrors: [{ source: 'src.example.com/team', mirrors: ['mirror.example.net/team'] }],
        },
      },
    });
    const mirrorMs = await reaches('the mirror in the Machine node’s hosts.toml', () =>
      (host.model.files.read(HOSTS_TOML)?.toString() ?? '').includes('https://mirror.example.net/v2'),
    );
    t.log(`${platform}: proxy ${proxyMs} ms, CA ${caMs} ms, mirror ${mirrorMs} ms (drift poll: 24 h)`);

    await setProxyStatus(world, {});
    await reaches('the proxy cleared', () => containerdEnv(world, ip) === '');
    t.pass();
  });
}

for (const platform of ['AWS', 'VSphere'])
  test.serial(
    `${platform}: proxy, trusted CA and mirror changes reach a Machine node through the watches, not the drift poll`,
    (t) => changesReachMachine(t, platform),
  );
