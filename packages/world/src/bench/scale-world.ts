import { FREE_HOST_COSTS, OPERATOR_NAMESPACE, SimulatedWindowsHost } from '@wmco/sim';
import { loadBuiltinProviders } from '@wmco/operator';
import { OPERATOR_STATUS_KEY } from '@wmco/core/internal';
import { SimWorld } from '../world/sim-world.js';
import type { JoinStatus } from './scale-figures.js';
import { scaleHybridNetwork } from './scale-network.js';

/** The simulated API server of a scale or soak bench and what it reads of the fleet. */
export interface ScaleCluster {
  readonly world: SimWorld;
  /** The operator's API user, whose requests are counted. */
  readonly operatorUser: string;
  /** Lists the first `count` hosts in windows-instances. */
  list(count: number): Promise<void>;
  /** How many instances the status ConfigMap shows Ready. */
  ready(): Promise<number>;
  /** The status ConfigMap's entries (phase, seconds per phase, join seconds). */
  statuses(): Promise<JoinStatus[]>;
  stop(): Promise<void>;
}

/** The simulated API server and `nodes` Windows hosts in this process, with a tiny payload (4 KiB per file). */
export interface ScaleWorld extends ScaleCluster {
  readonly hosts: readonly SimulatedWindowsHost[];
}

/**
 * The i-th host's loopback address: 127.<second>.<i ÷ 250>.<i mod 250 + 1>, the second octet from this
 * process's id so that two benches on one machine do not collide (the world's own hosts use 127.0.x.y).
 */
export function scaleAddress(i: number, pid = process.pid): string {
  if (!Number.isInteger(i) || i < 0 || i >= 250 * 256) throw new Error(`no address for host ${i}`);
  return `127.${100 + (pid % 100)}.${Math.floor(i / 250)}.${(i % 250) + 1}`;
}

const BATCH = 25;

export async function startScaleWorld(nodes: number, log: (line: string) => void): Promise<ScaleWorld> {
  const world = await SimWorld.start({
    hosts: [],
    providers: await loadBuiltinProviders(),
    hybridClusterNetwork: scaleHybridNetwork(nodes),
  });
  const hosts: SimulatedWindowsHost[] = [];
  try {
    for (let i = 0; i < nodes; i += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, nodes - i) }, (_, k) => i + k);
      const started = await Promise.all(
        batch.map((n) =>
          SimulatedWindowsHost.start({
            address: scaleAddress(n),
            ipv4: scaleAddress(n),
            hostname: `WIN-SCALE-${n + 1}`,
            authorizedKey: world.publicKey,
            costs: FREE_HOST_COSTS,
          }),
        ),
      );
      hosts.push(...started);
      if ((i + BATCH) % 250 === 0) log(`${hosts.length} simulated hosts started`);
    }
    await world.createPrivateKeySecret();
  } catch (err) {
    await Promise.all(hosts.map((h) => h.stop()));
    await world.stop();
    throw err;
  }
  return {
    ...scaleCluster(
      world,
      hosts.map((h) => h.host),
    ),
    hosts,
    stop: async () => {
      await Promise.all(hosts.map((h) => h.stop()));
      await world.stop();
    },
  };
}

/** What a scale bench reads of `world` whose hosts are at `addresses` (listed in this order). */
export function scaleCluster(world: SimWorld, addresses: readonly string[]): ScaleCluster {
  const api = world.admin();
  const statuses = async (): Promise<JoinStatus[]> => {
    const cm = await api.readNamespacedConfigMap({
      name: 'windows-instances-status',
      namespace: OPERATOR_NAMESPACE,
    });
    // The operator's own conditions are not an instance's.
    return Object.entries(cm.data ?? {})
      .filter(([key]) => key !== OPERATOR_STATUS_KEY)
      .map(([, v]) => JSON.parse(v) as JoinStatus);
  };
  return {
    world,
    operatorUser: world.cluster.operator.user.name,
    list: (count) =>
      world.setInstances(
        Object.fromEntries(addresses.slice(0, count).map((a) => [a, 'username=Administrator'])),
      ),
    ready: async () => (await statuses()).filter((s) => s.phase === 'Ready').length,
    statuses,
    stop: () => world.stop(),
  };
}
