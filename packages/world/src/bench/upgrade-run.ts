import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_HOST_COSTS, OPERATOR_NAMESPACE, type GeneratedPayload } from '@wmco/sim';
import { loadBuiltinProviders, OPERATOR_NODE_FLAGS } from '@wmco/operator';
import { DEFAULT_VXLAN_PORT, SimWorld } from '../world/sim-world.js';
import { allUpgraded } from '../world/upgrade-fixture.js';
import { until } from '../world/world-fixture.js';
import type { UpgradeMeasurement } from './upgrade-figures.js';
import { defaultHostsPerProcess, HostProcesses } from './host-processes.js';
import type { ScaleOperatorArgs } from './scale-operator.js';
import { SoakOperator } from './soak-operator.js';

export interface UpgradeRunOptions {
  readonly nodes: number;
  readonly base: GeneratedPayload;
  readonly variant: GeneratedPayload;
  readonly changed: string;
  readonly parallelJoins: number;
  /** The new operator's `--max-unavailable`. */
  readonly maxUnavailable: string;
  readonly log: (line: string) => void;
  /** The operator processes' node flags (default: the image's, OPERATOR_NODE_FLAGS). */
  readonly operatorNodeOptions?: readonly string[];
  /**
   * Called once the old version's operator stopped, before the new one starts: starts watching the
   * upgrade (e.g. the nodes' availability) and returns how to stop watching.
   */
  readonly watchUpgrade?: (world: SimWorld) => Promise<() => void>;
}

/** Every host's status `Ready` (one read of the status ConfigMap per look). */
function allReady(world: SimWorld, addresses: readonly string[]): () => Promise<true | undefined> {
  return async () => {
    const s = await world.statuses();
    for (const a of addresses) {
      const phase = s[a]?.phase;
      if (phase === 'Failed') throw new Error(`${a} failed: ${s[a]?.lastError ?? ''}`);
      if (phase !== 'Ready') return undefined;
    }
    return true;
  };
}

/**
 * `nodes` hosts joined by version 1.0.0 with `base` (that operator then stopped), then version 1.1.0 with
 * `variant` until every node runs it: each host's upload counters around the upgrade and its wall time.
 *
 * As in `pnpm bench join` and `scale`, the parts run in processes of their own: the simulated API server
 * in this one, the hosts in host processes (one per core), each operator version in its own process with
 * the image's node flags and `wmco run`'s runtime and defaults (scale-operator.ts), started again if it
 * exits on its own (a lost Lease), as its Deployment would. With all of them in one process, a wave's
 * twenty upgrades, their hosts and the API server shared one event loop, so a fleet measured that loop.
 */
export async function runUpgrade(o: UpgradeRunOptions): Promise<UpgradeMeasurement> {
  const world = await SimWorld.start({
    hosts: [],
    providers: await loadBuiltinProviders(),
    payloadDir: o.base.dir,
  });
  let hosts: HostProcesses | undefined;
  const operators: SoakOperator[] = [];
  const flags = o.operatorNodeOptions ?? OPERATOR_NODE_FLAGS;
  try {
    const names = Array.from({ length: o.nodes }, (_, i) => `WIN-UPG-${i + 1}`);
    hosts = await HostProcesses.start(names, defaultHostsPerProcess(o.nodes, availableParallelism()), {
      authorizedKey: world.publicKey,
      costs: DEFAULT_HOST_COSTS,
      payloadDir: o.base.dir,
      vxlanPort: DEFAULT_VXLAN_PORT,
      engine: 'model',
      dir: world.dir,
    });
    const fleet = hosts;
    const addresses = fleet.hosts.map((h) => h.address);
    const bytes = async (): Promise<number[]> => (await fleet.snapshots(addresses)).map((s) => s.work.bytes);
    await world.createPrivateKeySecret();
    const args: ScaleOperatorArgs = {
      kubeconfig: join(world.dir, 'operator.kubeconfig'),
      namespace: OPERATOR_NAMESPACE,
      payloadDir: o.base.dir,
      parallelJoins: o.parallelJoins,
      // `wmco run`'s default: no drift check of a Ready node during the measurement.
      driftRepairIntervalMs: 120_000,
      version: '1.0.0',
    };
    const a = await SoakOperator.start(args, o.log, flags);
    operators.push(a);
    const t0 = Date.now();
    await world.setInstances(Object.fromEntries(addresses.map((x) => [x, 'username=Administrator'])));
    await until('every host Ready on 1.0.0', allReady(world, addresses), 1_800_000, 500);
    await until('every node on 1.0.0', allUpgraded(world, '1.0.0'), 600_000);
    o.log(`${o.nodes} nodes joined on 1.0.0 in ${Math.round((Date.now() - t0) / 100) / 10} s`);
    await a.stop();
    const stopWatching = await o.watchUpgrade?.(world);
    const before = await bytes();
    const b = await SoakOperator.start(
      { ...args, version: '1.1.0', payloadDir: o.variant.dir, maxUnavailable: o.maxUnavailable },
      o.log,
      flags,
    );
    operators.push(b);
    await until('1.1.0 to lead', async () => ((await b.sample()).leading ? true : undefined), 600_000, 100);
    const t1 = Date.now();
    await until('every node on 1.1.0', allUpgraded(world, '1.1.0'), 1_800_000);
    const seconds = (Date.now() - t1) / 1000;
    stopWatching?.();
    await b.stop();
    const restarts = a.unexpectedExits + b.unexpectedExits;
    if (restarts > 0) o.log(`operator process started again after it exited (a lost Lease): ${restarts}`);
    const changed = o.variant.files.find((f) => f.name === o.changed)!;
    return { before, after: await bytes(), seconds, changedBinaryCompressedBytes: changed.compressedBytes };
  } finally {
    await Promise.all(operators.map((op) => op.stop().catch(() => undefined)));
    await hosts?.stop();
    await world.stop();
  }
}
