// Issue 16 items 3 and 5: PowerShell starts per fresh join and per drift check, counted by the simulated
// hosts; the API requests of drift checks, counted by the simulated API server.
import test from 'ava';
import type { LoggedRequest } from '@wmco/sim';
import type { SimWorld } from './sim-world.js';
import { joinAll, testWorld, until } from './world-fixture.js';

/** Reads that run on timers, not per check: the leader Lease; the services ConfigMap keeper's resync. */
const TIMED = [
  /\/leases\/windows-machine-config-operator-lock$/,
  /\/namespaces\/[^/]+\/configmaps$/,
  /\/configmaps\/windows-services-[^/]+$/,
];

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** Requests of the operator (not the simulated kubelets, controllers or this test) that read something. */
function operatorReads(world: SimWorld, since: number): LoggedRequest[] {
  return world.cluster.server.requests
    .since(since)
    .filter((r) => r.user === world.cluster.operator.user.name && r.method === 'GET' && !r.watch);
}

test.serial(
  'a fresh join is one PowerShell start (two with the Containers feature restart), with several service levels and pre-scripts',
  async (t) => {
    // No drift checks: every start counted here is the join's.
    const { world } = await testWorld(
      [{ hostname: 'WIN-A' }, { hostname: 'WIN-B', containersFeature: false }],
      { driftRepairIntervalMs: 0 },
    );
    t.teardown(() => world.stop());
    await joinAll(world);
    for (const [i, h] of world.hosts.hosts.entries()) {
      const ops = h.sim.invocations.map((i) => i.op);
      t.log(h.address, h.sim.stats.powershellStarts, ops.join(','));
      // One powershell.exe answers every call of the join's connection (ADR 0026); a restart ends it.
      // WIN-B lacks the Containers feature: the first apply installs it and restarts the host.
      t.is(h.sim.stats.powershellStarts, i === 1 ? 2 : 1, h.address);
      // Before the Node; after it, the first node services while kube-proxy's files still upload (ADR
      // 0030), then the rest. WIN-B, which restarts after its first apply, has every file by then.
      t.deepEqual(
        ops,
        i === 1
          ? ['observe', 'apply', 'observe', 'apply']
          : ['observe', 'apply', 'observe', 'apply', 'observe', 'apply'],
        'observe and apply before the Node, after it',
      );
      t.is(h.sim.stats.execs, h.sim.stats.powershellStarts, 'every exec is one of those starts');
      const status = await world.status(h.address);
      t.is(
        status?.powershellStarts,
        h.sim.stats.powershellStarts,
        'the status reports what the host counted',
      );
      // Service levels 0-3 and pre-scripts: value scripts in the observes, effect scripts in the applies.
      const [, preNode, ...postNode] = h.sim.invocations;
      t.deepEqual(
        preNode?.scripts.map((s) => s.name),
        ['containerd.0'],
        'the Defender exclusion ran in the first apply',
      );
      t.deepEqual(
        postNode.filter((x) => x.op === 'apply').flatMap((x) => x.scripts.map((s) => s.name)),
        ['kube-proxy.0'],
        'network-conf.ps1 in the last',
      );
      const running = h.sim.model.scm.all().filter((s) => s.state === 'running');
      t.is(running.length, 6, running.map((s) => s.name).join(','));
    }
    const b = world.hosts.hosts[1]!;
    t.true(b.sim.model.containersFeature, 'the feature was installed; the restart came from the first apply');
  },
);

test.serial(
  'a drift check of a matching node is one PowerShell start, one exec and no SFTP; its cluster reads do not grow with the checks',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-A' }, { hostname: 'WIN-B' }], {
      driftRepairIntervalMs: 300,
    });
    t.teardown(() => world.stop());
    await joinAll(world);
    const observes = (): number[] =>
      world.hosts.hosts.map((h) => h.sim.invocations.filter((i) => i.op === 'observe').length);
    // Let the first checks after the join settle, then count over N checks per host.
    await until('a first drift check on each host', () =>
      Promise.resolve(observes().every((n) => n >= 3) ? true : undefined),
    );
    const before = world.hosts.hosts.map((h) => ({ ...h.sim.stats }));
    const observed0 = observes();
    const requests0 = world.cluster.server.requests.total;
    const N = 10;
    await until(
      `${N} drift checks on each host`,
      () => Promise.resolve(observes().every((n, i) => n - observed0[i]! >= N) ? true : undefined),
      60_000,
    );
    const checks = observes().map((n, i) => n - observed0[i]!);
    const reads = operatorReads(world, requests0);
    world.hosts.hosts.forEach((h, i) => {
      const was = before[i]!;
      const opsNow = h.sim.invocations.slice(-checks[i]!).map((x) => x.op);
      t.false(opsNow.includes('apply'), 'nothing to apply on a matching node');
      // The counters are read while checks run every 300 ms, so a check in flight at either reading may
      // have its start counted and its observe not yet (or the other way): at most one either side.
      const starts = h.sim.stats.powershellStarts - was.powershellStarts;
      t.true(
        Math.abs(starts - checks[i]!) <= 1,
        `one PowerShell start per check: ${starts} for ${checks[i]!}`,
      );
      t.is(h.sim.stats.execs - was.execs, checks[i]!, 'one exec (one request and its answer) per check');
      t.is(h.sim.stats.sftpRequests - was.sftpRequests, 0, 'no SFTP: the module is not looked for');
    });
    const byPath = new Map<string, number>();
    for (const r of reads) byPath.set(r.path, (byPath.get(r.path) ?? 0) + 1);
    t.log(
      `${sum(checks)} checks; operator GETs: ${reads.length}`,
      [...byPath].map(([p, n]) => `${n} ${p}`).join('\n'),
    );
    // What remains runs on timers, whatever the number of checks: the leader Lease and the services
    // ConfigMap keeper (lifecycle/services-configmap-keeper.ts).
    const perCheck = reads.filter((r) => !TIMED.some((re) => re.test(r.path)));
    t.deepEqual(
      perCheck.map((r) => r.path),
      [],
      'no cluster fact, Node or host key is read per check: they come from informer caches',
    );
  },
);
