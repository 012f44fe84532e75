import test from 'ava';
import type { SimWorld } from './sim-world.js';
import { NS, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';

interface LogLine {
  msg?: string;
  informer?: string;
  reason?: string;
}

/**
 * Every open watch is dropped, something changes, and the history is compacted, all in one tick: the
 * informers reconnect with a resourceVersion that is now too old and get 410 Gone.
 */
function dropAndCompact(world: SimWorld, marker: number): void {
  const server = world.cluster.server;
  server.faults.dropWatches();
  const cm = server.registry.mustFind('', 'v1', 'configmaps');
  server.writer.create(cm, NS, { metadata: { name: `fault-marker-${marker}` } });
  server.faults.compact();
}

test.serial(
  'dropped watches, compaction (410) and an API server restart during and after joins: every node converges',
  async (t) => {
    const { world, logs } = await testWorld(
      [{ hostname: 'WIN-F1' }, { hostname: 'WIN-F2' }, { hostname: 'WIN-F3' }],
      { costs: { powershellStartMs: 60 } },
    );
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0), world.hosts.entry(1)]));
    await world.startOperator();
    const [h1, h2, h3] = world.hosts.hosts;

    // During the joins: faults every few hundred milliseconds until both are Ready.
    let marker = 0;
    await until('the first join to start', phaseIs(world, h1!.address, 'Configuring'), 30_000);
    dropAndCompact(world, marker++);
    await world.cluster.server.faults.restart(400);
    const during = setInterval(() => dropAndCompact(world, marker++), 350);
    try {
      await until('WIN-F1 Ready', phaseIs(world, h1!.address, 'Ready'), 45_000);
      await until('WIN-F2 Ready', phaseIs(world, h2!.address, 'Ready'), 45_000);
    } finally {
      clearInterval(during);
    }

    // After the joins: restart the API server and compact again, then list a third host. Only informers
    // that recovered can see it.
    await world.cluster.server.faults.restart(300);
    dropAndCompact(world, marker++);
    await world.setInstances(
      Object.fromEntries([world.hosts.entry(0), world.hosts.entry(1), world.hosts.entry(2)]),
    );
    await until('WIN-F3 Ready', phaseIs(world, h3!.address, 'Ready'), 45_000);
    const nodes = await windowsNodes(world);
    t.deepEqual(nodes.map((n) => n.metadata?.name).sort(), ['win-f1', 'win-f2', 'win-f3']);
    for (const n of nodes) {
      t.true(
        n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
        `${n.metadata?.name ?? ''} Ready`,
      );
      t.falsy(n.spec?.unschedulable);
    }

    const parsed = logs.map((l) => JSON.parse(l) as LogLine);
    const restarts = parsed.filter((l) => l.msg === 'informer restarting');
    const errors = parsed.filter((l) => l.msg === 'informer error; restarting');
    t.log(`${restarts.length} 'informer restarting', ${errors.length} 'informer error; restarting' lines`);
    t.true(
      restarts.some((l) => l.reason === 'resource version expired'),
      'a 410 made an informer relist',
    );
    t.true(errors.length > 0, 'the restart made informers fail and back off');
    const restarted = new Set(restarts.map((l) => l.informer));
    for (const informer of ['windows-instances', 'windows-nodes', 'private-key', 'csrs'])
      t.true(restarted.has(informer), `the ${informer} informer restarted`);
  },
);
