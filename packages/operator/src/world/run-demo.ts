import { runDemoMachineSets, type DemoMachineSets } from './demo-machines.js';
import type { InstanceStatus, WmcoProvider } from '@wmco/core';
import { DEFAULT_HOST_COSTS } from '@wmco/sim';
import { progressLine, summaryTable } from './progress.js';
import { SimWorld } from './sim-world.js';
import type { SimHostSpec } from './world-hosts.js';

export interface DemoOptions {
  /** The hosts to start (`demoHosts(n)` for `--hosts N`, or a hosts file's). */
  readonly hosts: readonly SimHostSpec[];
  readonly platform: string;
  readonly providers: readonly WmcoProvider[];
  readonly out: (line: string) => void;
  readonly timeoutMs: number;
  /** Windows MachineSets to create beside the hosts (`--machinesets N --replicas R`). */
  readonly machineSets?: DemoMachineSets;
  /** Called once the hosts are listed in windows-instances, before the operator starts. */
  readonly beforeOperator?: (world: SimWorld) => Promise<void>;
  /** Called once every host is Ready (or failed), with the world still running. */
  readonly whileRunning?: (world: SimWorld) => Promise<void>;
}

type Statuses = [string, InstanceStatus | undefined][];

/** What `follow` watches: a world's hosts and the status the operator published for each. */
export interface FollowedWorld {
  readonly hosts: SimWorld['hosts'];
  status(address: string): Promise<InstanceStatus | undefined>;
}

/** Prints each host's phase changes until every host is Ready or Failed (or time is up). */
export async function follow(
  world: FollowedWorld,
  o: Pick<DemoOptions, 'out' | 'timeoutMs'>,
  t0: number,
): Promise<Statuses> {
  const addresses = world.hosts.hosts.map((h) => h.address);
  const last = new Map<string, string>();
  const deadline = Date.now() + o.timeoutMs;
  for (;;) {
    const statuses = await Promise.all(
      addresses.map(async (a): Promise<[string, InstanceStatus | undefined]> => [a, await world.status(a)]),
    );
    for (const [a, s] of statuses) {
      if (s && last.get(a) !== s.phase) o.out(progressLine(world.hosts.label(a), s, t0));
      last.set(a, s?.phase ?? '');
    }
    const settled = statuses.every(([, s]) => s?.phase === 'Ready' || s?.phase === 'Failed');
    if (settled || Date.now() > deadline) return statuses;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The demo: a simulated cluster and the given Windows hosts at the default simulated costs, the operator
 * against them, live progress per host, then a summary. Resolves true when every host became Ready.
 */
export async function runDemo(o: DemoOptions): Promise<boolean> {
  const t0 = Date.now();
  const world = await SimWorld.start({
    hosts: o.hosts,
    platform: o.platform,
    providers: o.providers,
    costs: DEFAULT_HOST_COSTS,
  });
  try {
    o.out(
      `simulated cluster ${world.cluster.server.url} (platform ${world.cluster.platform}), ${o.hosts.length} Windows hosts over SSH`,
    );
    await world.createPrivateKeySecret();
    const entries = Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i)));
    await world.setInstances(entries);
    o.out(`windows-instances: ${Object.keys(entries).join(', ')}`);
    await o.beforeOperator?.(world);
    await world.startOperator();
    const machines = o.machineSets
      ? runDemoMachineSets(world, o.machineSets, o.platform, o)
      : Promise.resolve(true);
    const statuses = await follow(world, o, t0);
    o.out('');
    o.out(summaryTable(statuses.map(([a, s]) => [world.hosts.label(a), s])));
    const machinesOk = await machines;
    await o.whileRunning?.(world);
    return machinesOk && statuses.every(([, s]) => s?.phase === 'Ready');
  } finally {
    await world.stop();
  }
}
