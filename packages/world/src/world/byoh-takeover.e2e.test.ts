import test from 'ava';
import { PatchStrategy, setHeaderOptions, type V1Node } from '@kubernetes/client-node';
import { decodeNodeRecord, encryptUpstreamUsername, NODE_RECORD_LABEL } from '@wmco/core/internal';
import { GO_WMCO_DAEMON } from './go-wmco-daemon-staging.js';
import { GO_WMCO_VERSION, stageGoWmcoJoined } from './go-wmco-staging.js';
import type { SimWorld } from './sim-world.js';
import { Watchdog } from './watchdog.js';
import { apis, eventsAbout, NS, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';

const VERSION = '2.0.0';
const HOSTS = ['WIN-A', 'WIN-B', 'WIN-C', 'WIN-D'].map((hostname) => ({ hostname }));
const versionOf = (n: V1Node): string | undefined =>
  n.metadata?.annotations?.['windowsmachineconfig.openshift.io/version'];

const daemonOn = (world: SimWorld, i: number): string | undefined =>
  world.hosts.hosts[i]?.sim.model.scm.get(GO_WMCO_DAEMON)?.state;

function starts(world: SimWorld, i: number): number {
  return world.hosts.hosts[i]?.sim.model.scm.events.filter((e) => e.action === 'start').length ?? 0;
}

/** Hosts joined (by a wmco-ts operator standing in for the Go WMCO), then staged as the Go WMCO leaves them. */
async function goWmcoWorld(): Promise<SimWorld> {
  const { world } = await testWorld(HOSTS, { driftRepairIntervalMs: 0 });
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
  const go = await world.startOperator('go-wmco', { version: VERSION });
  for (const h of world.hosts.hosts)
    await until(`${h.address} Ready`, phaseIs(world, h.address, 'Ready'), 120_000);
  await go.stop();
  await stageGoWmcoJoined(world);
  return world;
}

test.serial(
  'nodes the Go WMCO joined are taken over in place: matching hosts restart nothing, the others are upgraded one at a time',
  async (t) => {
    const world = await goWmcoWorld();
    t.teardown(() => world.stop());
    for (const n of await windowsNodes(world)) t.is(versionOf(n), GO_WMCO_VERSION);
    t.deepEqual(
      HOSTS.map((_, i) => daemonOn(world, i)),
      ['running', 'running', 'running', 'running'],
      'staged: the Go WMCO daemon runs',
    );
    // WIN-A kept four hybrid-overlay client certificates (a Go WMCO before OCPBUGS-86246 pruned none).
    const certs = ['24', '25', '26', '27'].map((d) => `ovnkube-client-2026-11-${d}-10-00-00.pem`);
    const files = world.hosts.hosts[0]!.sim.model.files;
    for (const c of certs) files.write(`C:\\k\\cni\\config\\${c}`, Buffer.from(c));
    // WIN-C and WIN-D were left with an older kube-proxy.exe than this operator's payload.
    for (const i of [2, 3])
      world.hosts.hosts[i]?.sim.model.files.write('C:\\k\\kube-proxy.exe', Buffer.from('older'));
    const before = HOSTS.map((_, i) => starts(world, i));
    const dog = new Watchdog(world);
    await dog.start();

    await world.startOperator('wmco-ts', { version: VERSION, maxUnavailable: '1' });
    await until(
      'every node on this version',
      async () =>
        (await windowsNodes(world)).every((n) => versionOf(n) === VERSION && n.spec?.unschedulable !== true)
          ? true
          : undefined,
      180_000,
    );
    dog.stop();

    t.deepEqual(
      [starts(world, 0), starts(world, 1)],
      [before[0], before[1]],
      'no service started on matching hosts',
    );
    t.true(
      starts(world, 2) > (before[2] ?? 0) && starts(world, 3) > (before[3] ?? 0),
      'the others were reconfigured',
    );
    t.is(dog.maxUnavailable, 1, `one node unavailable at a time, never more (saw ${dog.worst.join(', ')})`);
    const left = files.list('C:\\k\\cni\\config').map((e) => e.name);
    t.deepEqual(
      left.filter((n) => n.startsWith('ovnkube-client-')).sort(),
      certs.slice(2),
      'old client certificates pruned on the matching host, the newest two kept',
    );
    const events = await eventsAbout(world);
    const upgraded = events.filter((e) => e.reason === 'Upgraded').map((e) => e.message.split(' ')[2]);
    t.deepEqual(
      upgraded.sort(),
      ['win-c', 'win-d'],
      'the normal upgrade (drain, reconfigure) ran on those two only',
    );
    t.deepEqual(
      HOSTS.map((_, i) => daemonOn(world, i)),
      [undefined, undefined, undefined, undefined],
      'the Go WMCO daemon is stopped and deleted on every adopted host',
    );
    const removed = events.filter((e) => e.reason === 'UpstreamDaemonRemoved').map((e) => e.message);
    t.deepEqual(
      removed.map((m) => / on node (\S+) /.exec(m)?.[1]).sort(),
      ['win-a', 'win-b', 'win-c', 'win-d'],
      removed.join('\n'),
    );
    const taken = events.filter((e) => e.reason === 'NodeTakenOver').map((e) => e.message);
    t.is(taken.length, 4, taken.join('\n'));
    t.true(
      taken.some(
        (m) =>
          m.startsWith(`Took over node win-a (joined by another operator, version ${GO_WMCO_VERSION})`) &&
          /nothing was restarted/.test(m),
      ),
      taken.join('\n'),
    );
    t.true(
      taken.some(
        (m) => m.startsWith('Took over node win-c') && /upgraded under the disruption budget/.test(m),
      ),
    );
    const records = await apis(world).core.listNamespacedConfigMap({
      namespace: NS,
      labelSelector: `${NODE_RECORD_LABEL}=true`,
    });
    t.deepEqual(records.items.map((cm) => decodeNodeRecord(cm)?.nodeName).sort(), [
      'win-a',
      'win-b',
      'win-c',
      'win-d',
    ]);
  },
);

test.serial(
  'a node whose username annotation or host key does not check out is reported and not taken over',
  async (t) => {
    const world = await goWmcoWorld();
    t.teardown(() => world.stop());
    const { core } = apis(world);
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    // win-a: the username annotation of another key; win-b: another host key recorded on the Node.
    const foreign = await encryptUpstreamUsername('Administrator', 'another private key');
    const patch = (name: string, annotations: Record<string, string>): Promise<V1Node> =>
      core.patchNode({ name, body: { metadata: { annotations } } }, merge);
    await patch('win-a', { 'windowsmachineconfig.openshift.io/username': foreign });
    await patch('win-b', {
      'windowsmachineconfig.openshift.io/ssh-host-key': 'AAAAC3NzaC1lZDI1NTE5AAAAIOther',
    });
    const before = [starts(world, 0), starts(world, 1)];

    await world.startOperator('wmco-ts', { version: VERSION });
    for (const [i, why] of [
      [0, /username annotation does not decrypt/],
      [1, /SSH key .* is not the one recorded on the Node/],
    ] as const) {
      const address = world.hosts.hosts[i]?.address ?? '';
      const s = await until(`${address} refused`, async () => {
        const st = await world.status(address);
        return st?.phase === 'Failed' ? st : undefined;
      });
      t.regex(s.lastError ?? '', why);
    }
    const refused = (await eventsAbout(world)).filter((e) => e.reason === 'NodeTakeoverRefused');
    t.true(refused.length >= 2);
    const nodes = await windowsNodes(world);
    for (const name of ['win-a', 'win-b']) {
      const n = nodes.find((x) => x.metadata?.name === name);
      t.is(versionOf(n ?? {}), GO_WMCO_VERSION, `${name} left as it was`);
      t.is(n?.metadata?.annotations?.['windowsmachineconfig.openshift.io/instance-address'], undefined);
    }
    t.deepEqual([starts(world, 0), starts(world, 1)], before, 'nothing ran on the refused hosts');
    t.deepEqual([daemonOn(world, 0), daemonOn(world, 1)], ['running', 'running'], 'their daemon left alone');
  },
);
