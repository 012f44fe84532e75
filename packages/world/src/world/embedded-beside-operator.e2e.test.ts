import test, { type ExecutionContext } from 'ava';
import { join } from 'node:path';
import { CoreV1Api, CustomObjectsApi, KubeConfig, type V1Node } from '@kubernetes/client-node';
import { parseCsr } from '@wmco/core';
import { NODE_RECORD_LABEL, OPERATOR_STATUS_KEY } from '@wmco/core/internal';
import { generateEd25519KeyPair, sshFingerprint } from '@wmco/sim';
import {
  lineLogger,
  startEmbeddedController,
  WINDOWS_HOSTS_SOURCE,
  type EmbeddedController,
} from '@wmco/embedded-controller-example';
import { NodeWrites } from './node-writes.js';
import type { SimWorld } from './sim-world.js';
import { applyWindowsHostCrd, WorldWindowsHosts } from './windows-host-fixture.js';
import { apis, eventsAbout, NS, phaseIs, testWorld, until } from './world-fixture.js';

// The wmco operator (windows-instances, its namespace, key A) and the example's embedded controller
// (WindowsHost custom resources, namespace windows-hosts, key B) in one simulated cluster. Each joins,
// upgrades and removes its own host; neither connects to the other's host (the hosts count the keys
// offered to them), writes the other's Node, records or statuses, or decides the other's CSRs.
const EMBEDDED_NS = 'windows-hosts';
const VERSION = { operator2: '9.9.9-op', embedded1: '0.1.0-embedded', embedded2: '0.2.0-embedded' };
const VERSION_ANNOTATION = 'windowsmachineconfig.openshift.io/version';
// Drift checks every ten minutes: a configuration change reaches the nodes through the watches.
const TEN_MINUTES = 600_000;
const PROXY = { group: 'config.openshift.io', version: 'v1', plural: 'proxies', name: 'cluster' };

async function setClusterProxy(world: SimWorld, httpProxy: string): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  const api = kc.makeApiClient(CustomObjectsApi);
  const current = (await api.getClusterCustomObject(PROXY)) as Record<string, unknown>;
  await api.replaceClusterCustomObjectStatus({ ...PROXY, body: { ...current, status: { httpProxy } } });
}

/** A probe: the host's kubelet runs with this HTTP_PROXY. */
function kubeletProxy(world: SimWorld, i: number, proxy: string): () => Promise<true | undefined> {
  const env = (): readonly string[] =>
    world.hosts.hosts[i]?.sim.model.scm.get('kubelet')?.runEnvironment ?? [];
  return () => Promise.resolve(env().includes(`HTTP_PROXY=${proxy}`) ? true : undefined);
}

function admin(world: SimWorld): CoreV1Api {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  return kc.makeApiClient(CoreV1Api);
}

async function embeddedNamespace(world: SimWorld, privateKey: string): Promise<void> {
  const core = admin(world);
  await core.createNamespace({ body: { metadata: { name: EMBEDDED_NS } } });
  await core.createNamespacedSecret({
    namespace: EMBEDDED_NS,
    body: {
      metadata: { name: 'cloud-private-key', namespace: EMBEDDED_NS },
      data: { 'private-key.pem': Buffer.from(privateKey).toString('base64') },
    },
  });
}

function embedded(world: SimWorld, version: string, lines: string[]): Promise<EmbeddedController> {
  return startEmbeddedController({
    kubeconfig: join(world.dir, 'operator.kubeconfig'),
    namespace: EMBEDDED_NS,
    payloadDir: world.payloadDir,
    version,
    logger: lineLogger({ level: 'debug', write: (l) => lines.push(l) }),
    simulation: {
      hooks: {
        sshOverrides: (address) => world.hosts.sshOverrides(address),
        resolver: world.resolver,
        timings: { nodeRegistrationMs: 60_000, nodeReadyMs: 60_000, pollMs: 100, keyRetryMs: 500 },
        lifecycle: { drainRetryMs: 200, drainTimeoutMs: 30_000, upgradeRetryMs: 500, servicesResyncMs: 500 },
      },
      driftRepairIntervalMs: TEN_MINUTES,
    },
  });
}

async function node(world: SimWorld, name: string): Promise<V1Node | undefined> {
  return apis(world)
    .core.readNode({ name })
    .catch(() => undefined);
}

function nodeAt(world: SimWorld, name: string, version: string): () => Promise<V1Node | undefined> {
  return async () => {
    const n = await node(world, name);
    const ready = n?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
    return ready && n?.metadata?.annotations?.[VERSION_ANNOTATION] === version ? n : undefined;
  };
}

function gone(world: SimWorld, name: string): () => Promise<true | undefined> {
  return async () => ((await node(world, name)) === undefined ? true : undefined);
}

/** The node names of one namespace's records, and the addresses of its instance statuses. */
async function kept(world: SimWorld, namespace: string): Promise<{ records: string[]; statuses: string[] }> {
  const core = apis(world).core;
  const records = await core.listNamespacedConfigMap({
    namespace,
    labelSelector: `${NODE_RECORD_LABEL}=true`,
  });
  const status = await core
    .readNamespacedConfigMap({ name: 'windows-instances-status', namespace })
    .catch(() => undefined);
  return {
    records: records.items.map(
      (cm) => (JSON.parse(cm.data?.['record.json'] ?? '{}') as { nodeName: string }).nodeName,
    ),
    // The instances' statuses (the `operator` key holds each controller's own conditions).
    statuses: Object.keys(status?.data ?? {})
      .filter((k) => k !== OPERATOR_STATUS_KEY)
      .sort(),
  };
}

/** Which source each record (`source`) and each instance status (`source`) of one namespace names. */
async function sourcesIn(
  world: SimWorld,
  namespace: string,
): Promise<{ records: string[]; statuses: string[] }> {
  const core = apis(world).core;
  const records = await core.listNamespacedConfigMap({
    namespace,
    labelSelector: `${NODE_RECORD_LABEL}=true`,
  });
  const status = await core.readNamespacedConfigMap({ name: 'windows-instances-status', namespace });
  const field = (json: string | undefined): string =>
    (JSON.parse(json ?? '{}') as { source?: string }).source ?? '';
  return {
    records: records.items.map((cm) => field(cm.data?.['record.json'])),
    statuses: Object.entries(status.data ?? {})
      .filter(([k]) => k !== OPERATOR_STATUS_KEY)
      .map(([, v]) => field(v)),
  };
}

/** The reasons of the events about one WindowsHost. */
async function windowsHostEvents(world: SimWorld, name: string): Promise<string[]> {
  const events = await apis(world).core.listNamespacedEvent({ namespace: EMBEDDED_NS });
  return events.items
    .filter((e) => e.involvedObject.kind === 'WindowsHost' && e.involvedObject.name === name)
    .map((e) => e.reason ?? '');
}

/** The node names of the kubelet CSRs whose approval a process logged. */
async function approvedFor(world: SimWorld, lines: readonly string[]): Promise<string[]> {
  const names = lines
    .filter((l) => l.includes('approved kubelet CSR'))
    .map((l) => (JSON.parse(l) as { csr?: string }).csr ?? '');
  const nodes = new Set<string>();
  for (const name of names) {
    const csr = await apis(world).certificates.readCertificateSigningRequest({ name });
    const cn = (await parseCsr(csr.spec.request)).commonName;
    nodes.add(cn.replace(/^system:node:/, ''));
  }
  return [...nodes].sort();
}

/** The fingerprints of the keys offered to a host over the whole test. */
function offered(world: SimWorld, i: number): string[] {
  return Object.keys(world.hosts.hosts[i]!.sim.stats.keysOffered);
}

function untouched(
  t: ExecutionContext,
  since: { writes: NodeWrites; mark: number; by: string },
  name: string,
): void {
  t.deepEqual(since.writes.changedSince(since.mark, name), [], `${since.by} left node ${name} as it was`);
}

test('the operator and an embedded controller in one cluster each join, reconfigure, upgrade and remove only their own nodes', async (t) => {
  const { world, logs } = await testWorld([{ hostname: 'WIN-O' }, { hostname: 'WIN-E' }], {
    driftRepairIntervalMs: TEN_MINUTES,
  });
  t.teardown(() => world.stop());
  const keyB = generateEd25519KeyPair();
  // An OpenSSH public key line's second field is the key blob the fingerprint is taken of.
  const blob = (line: string): Buffer => Buffer.from(line.split(' ')[1] ?? '', 'base64');
  const fp = { a: sshFingerprint(blob(world.publicKey)), b: sshFingerprint(blob(keyB.public)) };
  const [hostO, hostE] = [world.hosts.hosts[0]!, world.hosts.hosts[1]!];
  // The embedded controller's host accepts its key only (the operator's would be refused, and counted).
  hostE.sim.authorizeKeys([keyB.public]);
  await world.createPrivateKeySecret();
  await embeddedNamespace(world, keyB.private);
  await applyWindowsHostCrd(world);
  const writes = await NodeWrites.start(world);
  t.teardown(() => writes.stop());
  const windowsHosts = new WorldWindowsHosts(world, EMBEDDED_NS);

  // Both join their own host.
  const first = await world.startOperator('wmco-1');
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  const embeddedLines: string[] = [];
  let controller = await embedded(world, VERSION.embedded1, embeddedLines);
  t.teardown(() => controller.stop());
  await windowsHosts.create('win-e', hostE.address);
  await until('win-o Ready', phaseIs(world, hostO.address, 'Ready'), 90_000);
  const statusE = await until('WindowsHost win-e Ready', windowsHosts.phaseIs('win-e', 'Ready'), 90_000);
  t.is(statusE.nodeName, 'win-e');
  t.deepEqual(await kept(world, NS), { records: ['win-o'], statuses: [hostO.address] });
  t.deepEqual(await kept(world, EMBEDDED_NS), { records: ['win-e'], statuses: [hostE.address] });
  const joinedBy = async (name: string): Promise<string | undefined> =>
    (await node(world, name))?.metadata?.annotations?.['windowsmachineconfig.openshift.io/records-namespace'];
  t.is(await joinedBy('win-o'), NS);
  t.is(await joinedBy('win-e'), EMBEDDED_NS);
  // The embedded controller's host is its own source's (records `source/windows-hosts`, statuses
  // `windows-hosts`), not a windows-instances entry; the operator's are windows-instances'.
  t.deepEqual(await sourcesIn(world, NS), { records: ['windows-instances'], statuses: ['byoh'] });
  t.deepEqual(await sourcesIn(world, EMBEDDED_NS), {
    records: [`source/${WINDOWS_HOSTS_SOURCE}`],
    statuses: [WINDOWS_HOSTS_SOURCE],
  });
  // Its join is told on its WindowsHost (the event follows the Ready status).
  await until('InstanceSetup on WindowsHost win-e', async () =>
    (await windowsHostEvents(world, 'win-e')).includes('InstanceSetup') ? true : undefined,
  );

  // A cluster configuration change: each controller's watches bring it to its own node.
  await setClusterProxy(world, 'http://proxy.example.com:3128');
  await until('the proxy on win-o', kubeletProxy(world, 0, 'http://proxy.example.com:3128'), 60_000);
  await until('the proxy on win-e', kubeletProxy(world, 1, 'http://proxy.example.com:3128'), 60_000);

  // The embedded controller upgrades its node; the operator's is left alone.
  let mark = writes.mark();
  await controller.stop();
  controller = await embedded(world, VERSION.embedded2, embeddedLines);
  await until('win-e upgraded', nodeAt(world, 'win-e', VERSION.embedded2), 90_000);
  await until('WindowsHost win-e Ready again', windowsHosts.phaseIs('win-e', 'Ready'), 90_000);
  untouched(t, { writes, mark, by: 'the embedded controller’s upgrade' }, 'win-o');
  t.true(writes.changedSince(mark, 'win-e').length > 0, 'the recorder sees the upgrade’s own writes');

  // The operator upgrades its node; the embedded controller's is left alone.
  mark = writes.mark();
  await first.stop();
  const second = await world.startOperator('wmco-2', { version: VERSION.operator2 });
  t.teardown(() => second.stop());
  await until('win-o upgraded', nodeAt(world, 'win-o', VERSION.operator2), 90_000);
  untouched(t, { writes, mark, by: 'the operator’s upgrade' }, 'win-e');
  t.true(writes.changedSince(mark, 'win-o').length > 0, 'the recorder sees the upgrade’s own writes');

  // Each removes its host; the other's node stays as it was.
  mark = writes.mark();
  await world.setInstances({});
  await until('win-o removed', gone(world, 'win-o'), 90_000);
  untouched(t, { writes, mark, by: 'the operator’s removal' }, 'win-e');
  t.truthy(await nodeAt(world, 'win-e', VERSION.embedded2)(), 'win-e still Ready');
  mark = writes.mark();
  await windowsHosts.delete('win-e');
  await until('win-e removed', gone(world, 'win-e'), 90_000);
  t.deepEqual(
    writes.changedSince(mark, 'win-o'),
    [],
    'the embedded controller’s removal wrote no other Node',
  );

  // No SSH from one to the other's host, over the whole test.
  t.deepEqual(offered(world, 0), [fp.a], 'only the operator’s key was offered to its host');
  t.deepEqual(offered(world, 1), [fp.b], 'only the embedded controller’s key was offered to its host');
  // Each approved the CSRs of its own node only, and neither refused the other's.
  t.deepEqual(await approvedFor(world, logs), ['win-o']);
  t.deepEqual(await approvedFor(world, embeddedLines), ['win-e']);
  // Neither reported the other's node as one it has no record of, or as one to migrate.
  const about = (await eventsAbout(world)).filter((e) => e.message.includes('win-'));
  t.deepEqual(
    about.filter((e) => ['NodeNotRecorded', 'NodeRecordNotMigrated', 'CSRNotApproved'].includes(e.reason)),
    [],
  );
  const csrs = await apis(world).certificates.listCertificateSigningRequest();
  t.false(
    csrs.items.some((c) => c.status?.conditions?.some((x) => x.type === 'Denied')),
    'no CSR denied',
  );
});
