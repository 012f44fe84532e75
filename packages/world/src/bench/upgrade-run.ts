import { DEFAULT_HOST_COSTS, type GeneratedPayload } from '@wmco/sim';
import { DEFAULT_LEADER_ELECTION } from '@wmco/core';
import { loadBuiltinProviders } from '@wmco/operator';
import { SimWorld } from '../world/sim-world.js';
import { allUpgraded } from '../world/upgrade-fixture.js';
import { phaseIs, until } from '../world/world-fixture.js';
import type { UpgradeMeasurement } from './upgrade-figures.js';
import { LeadingOperator } from './leading-operator.js';

export interface UpgradeRunOptions {
  readonly nodes: number;
  readonly base: GeneratedPayload;
  readonly variant: GeneratedPayload;
  readonly changed: string;
  readonly parallelJoins: number;
  /** The new operator's `--max-unavailable`. */
  readonly maxUnavailable: string;
  readonly log: (line: string) => void;
  /**
   * Called once the old version's operator stopped, before the new one starts: starts watching the
   * upgrade (e.g. the nodes' availability) and returns how to stop watching.
   */
  readonly watchUpgrade?: (world: SimWorld) => Promise<() => void>;
}

const bytes = (world: SimWorld): number[] => world.hosts.hosts.map((h) => h.sim.stats.bytesReceived);

/**
 * `nodes` hosts joined by version 1.0.0 with `base` (that operator then stopped), then version 1.1.0 with
 * `variant` until every node runs it: each host's upload counters around the upgrade and its wall time.
 */
export async function runUpgrade(o: UpgradeRunOptions): Promise<UpgradeMeasurement> {
  const world = await SimWorld.start({
    hosts: Array.from({ length: o.nodes }, (_, i) => ({ hostname: `WIN-UPG-${i + 1}` })),
    costs: DEFAULT_HOST_COSTS,
    providers: await loadBuiltinProviders(),
    payloadDir: o.base.dir,
    parallelJoins: o.parallelJoins,
    driftRepairIntervalMs: 120_000,
  });
  try {
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
    // wmco run's Lease timing (the world's short one lost the Lease on a busy machine), and an operator
    // that loses it anyway is replaced, as its Deployment would (a 200-node run stopped at 136 nodes).
    const leaderTiming = DEFAULT_LEADER_ELECTION;
    const a = new LeadingOperator(world, 'wmco-a', { version: '1.0.0', leaderTiming }, o.log);
    await a.runtime();
    const t0 = Date.now();
    for (const h of world.hosts.hosts)
      await until(`${h.address} Ready on 1.0.0`, phaseIs(world, h.address, 'Ready'), 1_800_000);
    await until('every node on 1.0.0', allUpgraded(world, '1.0.0'), 600_000);
    o.log(`${o.nodes} nodes joined on 1.0.0 in ${Math.round((Date.now() - t0) / 100) / 10} s`);
    await a.stop();
    const stopWatching = await o.watchUpgrade?.(world);
    const before = bytes(world);
    const b = new LeadingOperator(
      world,
      'wmco-b',
      { version: '1.1.0', payloadDir: o.variant.dir, maxUnavailable: o.maxUnavailable, leaderTiming },
      o.log,
    );
    await until('1.1.0 to lead', async () => {
      const rt = await b.runtime();
      return rt.leading && rt.synced ? true : undefined;
    });
    const t1 = Date.now();
    await until('every node on 1.1.0', allUpgraded(world, '1.1.0'), 1_800_000);
    const seconds = (Date.now() - t1) / 1000;
    stopWatching?.();
    await b.stop();
    if (a.restarts + b.restarts > 0)
      o.log(`operator replaced after a lost Lease: ${a.restarts + b.restarts}`);
    const changed = o.variant.files.find((f) => f.name === o.changed)!;
    return { before, after: bytes(world), seconds, changedBinaryCompressedBytes: changed.compressedBytes };
  } finally {
    await world.stop();
  }
}
