import test from 'ava';
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import type { SimWorld } from './sim-world.js';
import {
  apis,
  eventsAbout,
  testWorld,
  until,
  windowsNodes,
  joinAll,
  NO_DRIFT_POLL_MS,
  WATCHED_CHANGE_WAIT_MS,
} from './world-fixture.js';

const REG = 'C:\\k\\containerd\\registries';
const IDMS = { group: 'config.openshift.io', version: 'v1', plural: 'imagedigestmirrorsets' };

function custom(world: SimWorld): CustomObjectsApi {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  return kc.makeApiClient(CustomObjectsApi);
}

function idms(name: string, source: string, mirrors: string[]): object {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ImageDigestMirrorSet',
    metadata: { name },
    spec: { imageDigestMirrors: [{ source, mirrors }] },
  };
}

/** Each host's registry folder: sub-folder name → hosts.toml text (undefined when the file is missing). */
function registries(world: SimWorld): Record<string, string | undefined>[] {
  return world.hosts.hosts.map((h) => {
    const files = h.sim.model.files;
    if (!files.isDirectory(REG)) return {};
    return Object.fromEntries(
      files
        .list(REG)
        .filter((e) => e.directory)
        .map((e) => [e.name, files.read(`${REG}\\${e.name}\\hosts.toml`)?.toString()]),
    );
  });
}

/** Waits until every host's registry folder satisfies `ok`; returns how long it took (for the log). */
async function allHosts(
  world: SimWorld,
  what: string,
  ok: (r: Record<string, string | undefined>) => boolean,
): Promise<number> {
  const start = Date.now();
  await until(
    what,
    () => Promise.resolve(registries(world).every(ok) ? true : undefined),
    WATCHED_CHANGE_WAIT_MS,
  );
  return Date.now() - start;
}

// No drift poll within the test: what reaches the nodes came through the watches.
test.serial(
  'an IDMS created, changed and deleted reaches every node through the watches (no drift poll), no cordon',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-A' }, { hostname: 'WIN-B' }], {
      driftRepairIntervalMs: NO_DRIFT_POLL_MS,
    });
    t.teardown(() => world.stop());
    await joinAll(world);
    t.deepEqual(registries(world), [{}, {}], 'no mirror set yet: an empty registry folder');

    const cordoned: string[] = [];
    const sampler = setInterval(() => {
      void windowsNodes(world).then((ns) => {
        for (const n of ns) if (n.spec?.unschedulable) cordoned.push(n.metadata?.name ?? '');
      });
    }, 100);
    t.teardown(() => clearInterval(sampler));

    const api = custom(world);
    await api.createClusterCustomObject({
      ...IDMS,
      body: idms('mirror-a', 'src.example.com/team', ['mirror-one.example.net/team']),
    });
    const created = await allHosts(world, 'hosts.toml created', (r) =>
      (r['src.example.com'] ?? '').includes('https://mirror-one.example.net/v2'),
    );
    t.log(`created ${created} ms`);

    const current = (await api.getClusterCustomObject({ ...IDMS, name: 'mirror-a' })) as { metadata: object };
    await api.replaceClusterCustomObject({
      ...IDMS,
      name: 'mirror-a',
      body: {
        ...idms('mirror-a', 'src.example.com/team', ['mirror-two.example.net:5000/team']),
        metadata: current.metadata,
      },
    });
    const changed = await allHosts(world, 'hosts.toml changed', (r) => {
      const text = r['src.example.com'] ?? '';
      return text.includes('https://mirror-two.example.net:5000/v2') && !text.includes('mirror-one');
    });
    t.log(`changed ${changed} ms`);

    await api.createClusterCustomObject({
      ...IDMS,
      body: idms('mirror-b', 'other.example.com:8443/x', ['mirror-one.example.net/x']),
    });
    await allHosts(world, 'second source', (r) => r['other.example.com_8443_'] !== undefined);

    // Credentials for the mirror in the pull secret reach its hosts.toml (the pull-secret watch).
    const core = apis(world).core;
    const secret = await core.readNamespacedSecret({ name: 'pull-secret', namespace: 'openshift-config' });
    const auths = JSON.parse(Buffer.from(secret.data?.['.dockerconfigjson'] ?? '', 'base64').toString()) as {
      auths?: Record<string, unknown>;
    };
    const basic = Buffer.from('mirror-user:mirror-pass').toString('base64');
    const dockerconfig = { auths: { ...auths.auths, 'mirror-one.example.net': { auth: basic } } };
    await core.replaceNamespacedSecret({
      name: 'pull-secret',
      namespace: 'openshift-config',
      body: {
        ...secret,
        data: { '.dockerconfigjson': Buffer.from(JSON.stringify(dockerconfig)).toString('base64') },
      },
    });
    const credentials = await allHosts(world, 'mirror credentials', (r) =>
      (r['other.example.com_8443_'] ?? '').includes(`authorization = "Basic ${basic}"`),
    );
    t.log(`credentials ${credentials} ms`);

    await api.deleteClusterCustomObject({ ...IDMS, name: 'mirror-a' });
    const removed = await allHosts(
      world,
      'stale folder removed',
      (r) => Object.keys(r).join() === 'other.example.com_8443_',
    );
    t.log(`removed ${removed} ms`);
    await api.deleteClusterCustomObject({ ...IDMS, name: 'mirror-b' });
    await allHosts(world, 'every folder removed', (r) => Object.keys(r).length === 0);

    clearInterval(sampler);
    t.deepEqual(cordoned, [], 'no node was cordoned');
    for (const n of await windowsNodes(world)) t.falsy(n.spec?.unschedulable);
    for (const h of world.hosts.hosts) {
      const running = h.sim.model.scm.all().filter((s) => s.state === 'running').length;
      t.is(running, 6, `${h.address}: every service still running`);
    }
    const repaired = (await eventsAbout(world)).filter((e) => e.reason === 'DriftRepaired');
    t.true(repaired.length > 0);
    t.true(
      repaired.some((e) => e.message.includes('remove directory')),
      JSON.stringify(repaired),
    );
  },
);
