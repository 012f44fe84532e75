// The real consumer of the hosts.toml files the operator pushed to a node: Debian's containerd
// (`ctr content fetch-object --hosts-dir`, the ConfigureHosts code the CRI plugin uses) reads the files
// from the simulated host's file model, before and after an IDMS change. The test helpers are core's
// (packages/core/src/desired/*.test-helper.ts), used from its build output.
import test from 'ava';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import {
  ensureRegistryTools,
  makeCertificate,
  pushImage,
  removeDir,
  run,
  startRegistry,
  type Registry,
} from '../../../core/dist/desired/oci-registry.test-helper.js';
import { buildImage } from '../../../core/dist/desired/oci-image.test-helper.js';
import type { SimWorld } from './sim-world.js';
import { phaseIs, testWorld, until } from './world-fixture.js';

const REG = 'C:\\k\\containerd\\registries';
const IDMS = { group: 'config.openshift.io', version: 'v1', plural: 'imagedigestmirrorsets' };
const SOURCE = 'idms.example.invalid';
const unavailable = ensureRegistryTools();
const suite = unavailable ? test.serial.skip : test.serial;
if (unavailable) console.log(`containerd check skipped: ${unavailable}`);

/** Copies the node's registry folder (every sub-folder's hosts.toml) into a fresh local folder. */
async function copyRegistryFolder(world: SimWorld, work: string, n: number): Promise<string> {
  const files = world.hosts.hosts[0]!.sim.model.files;
  const dir = join(work, `node-hosts-${n}`);
  await mkdir(dir, { recursive: true });
  for (const e of files.isDirectory(REG) ? files.list(REG).filter((x) => x.directory) : []) {
    await mkdir(join(dir, e.name));
    const data = files.read(`${REG}\\${e.name}\\hosts.toml`);
    if (data) await writeFile(join(dir, e.name, 'hosts.toml'), data);
  }
  return dir;
}

async function fetchDigest(
  work: string,
  cert: string,
  dir: string,
  ref: string,
): Promise<string | undefined> {
  try {
    const { stdout } = await run(
      'ctr',
      ['--address', join(work, 'no-daemon.sock'), 'content', 'fetch-object', '--hosts-dir', dir, ref],
      { env: { ...process.env, SSL_CERT_FILE: cert }, encoding: 'buffer', timeout: 20_000 },
    );
    return `sha256:${createHash('sha256').update(stdout).digest('hex')}`;
  } catch {
    return undefined;
  }
}

const hits = (r: Registry): number => r.log().split(`ns=${SOURCE}`).length - 1;

function idms(mirror: Registry, metadata: object = { name: 'team-mirror' }): object {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ImageDigestMirrorSet',
    metadata,
    spec: { imageDigestMirrors: [{ source: `${SOURCE}/app`, mirrors: [`${mirror.host}/team/app`] }] },
  };
}

suite(
  'containerd pulls through the mirror the operator pushed to the node, and none once deleted',
  async (t) => {
    const work = await mkdtemp(join(tmpdir(), 'wmco-day2-containerd-'));
    const tls = await makeCertificate(work);
    const ca = await readFile(tls.cert);
    const [one, two] = await Promise.all([
      startRegistry(join(work, 'one'), tls),
      startRegistry(join(work, 'two'), tls),
    ]);
    const { world } = await testWorld([{ hostname: 'WIN-A' }], { driftRepairIntervalMs: 600_000 });
    t.teardown(async () => {
      await world.stop();
      await Promise.all([one.stop(), two.stop()]);
      await removeDir(work);
    });
    await Promise.all([one, two].map((r) => pushImage(r.host, ca, { repo: 'team/app', tag: '1.0' })));
    const ref = `${SOURCE}/app@${buildImage().digest}`;
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await world.startOperator();
    const address = world.hosts.hosts[0]!.address;
    await until(`${address} Ready`, phaseIs(world, address, 'Ready'), 90_000);
    const kc = new KubeConfig();
    kc.loadFromFile(world.adminKubeconfig);
    const api = kc.makeApiClient(CustomObjectsApi);
    const onNode = (text: string) => (): Promise<true | undefined> => {
      const toml = world.hosts.hosts[0]!.sim.model.files.read(`${REG}\\${SOURCE}\\hosts.toml`);
      return Promise.resolve(toml?.toString().includes(text) ? true : undefined);
    };

    await api.createClusterCustomObject({ ...IDMS, body: idms(one) });
    await until('mirror one on the node', onNode(one.host), 45_000);
    t.is(
      await fetchDigest(work, tls.cert, await copyRegistryFolder(world, work, 1), ref),
      buildImage().digest,
    );
    t.true(hits(one) > 0, 'mirror one served the pull');
    t.is(hits(two), 0);

    const current = (await api.getClusterCustomObject({ ...IDMS, name: 'team-mirror' })) as {
      metadata: object;
    };
    await api.replaceClusterCustomObject({ ...IDMS, name: 'team-mirror', body: idms(two, current.metadata) });
    await until('mirror two on the node', onNode(two.host), 45_000);
    const beforeOne = hits(one);
    t.is(
      await fetchDigest(work, tls.cert, await copyRegistryFolder(world, work, 2), ref),
      buildImage().digest,
    );
    t.true(hits(two) > 0, 'mirror two served the pull after the change');
    t.is(hits(one), beforeOne, 'the old mirror is no longer used');

    await api.deleteClusterCustomObject({ ...IDMS, name: 'team-mirror' });
    await until('registry folder emptied', () =>
      Promise.resolve(world.hosts.hosts[0]!.sim.model.files.list(REG).length === 0 ? true : undefined),
    );
    const [afterOne, afterTwo] = [hits(one), hits(two)];
    t.is(
      await fetchDigest(work, tls.cert, await copyRegistryFolder(world, work, 3), ref),
      undefined,
      'the source is unresolvable',
    );
    t.deepEqual([hits(one), hits(two)], [afterOne, afterTwo], 'no mirror was asked after the deletion');
  },
);
