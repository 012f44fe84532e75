// A join's node round starts the services of one dependency level together (a `startServices` step:
// Start() on each, then a wait for each), so a level costs one service start, not one per service.
import test from 'ava';
import type { ScmEvent } from '@wmco/sim';
import { joinAll, testWorld } from './world-fixture.js';

const START_MS = 400;

test.serial(
  'the node services that need none of the others start together; kube-proxy after hybrid-overlay',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-A' }], {
      costs: { serviceStartMs: START_MS },
      driftRepairIntervalMs: 0,
    });
    t.teardown(() => world.stop());
    await joinAll(world);
    const events = world.hosts.hosts[0]!.sim.model.scm.events;
    const started = new Map<string, ScmEvent>(
      events.filter((e) => e.action === 'start').map((e) => [e.name.toLowerCase(), e]),
    );
    t.log(
      [...started.values()]
        .map((e) => `${e.name} ${Math.round(e.pendingSince!)}-${Math.round(e.at)}`)
        .join(', '),
    );
    const get = (name: string): ScmEvent => {
      const e = started.get(name);
      if (!e) throw new Error(`${name} never started: ${[...started.keys()].join(', ')}`);
      return e;
    };
    const level = ['windows_exporter', 'csi-proxy', 'hybrid-overlay-node'].map(get);
    const pendingFrom = Math.max(...level.map((e) => e.pendingSince!));
    const runningFrom = Math.min(...level.map((e) => e.at));
    t.true(pendingFrom < runningFrom, 'all three were START_PENDING at the same moment');
    // Real chains stay chains: nothing starts before what it depends on runs.
    t.true(get('kubelet').pendingSince! >= get('containerd').at);
    t.true(get('hybrid-overlay-node').pendingSince! >= get('kubelet').at);
    t.true(get('kube-proxy').pendingSince! >= get('hybrid-overlay-node').at);
    // How long it took is for `pnpm bench join`; here the mechanism: the three overlapped (above).
  },
);
