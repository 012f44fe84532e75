import { runDemoMachineSets, type DemoMachineSets } from './demo-machines.js';
import type { InstanceStatus } from '@wmco/core/internal';
import type { WmcoProvider } from '@wmco/core/provider';
import { DEFAULT_HOST_COSTS } from '@wmco/sim';
import { simCloudPlatforms } from '../clouds/sim-clouds.js';
import { DemoDriver, type RowState } from './demo-driver.js';
import { progressLine, summaryTable, worldLine } from './progress.js';
import { SimWorld } from './sim-world.js';
import type { SimHostSpec } from './world-hosts.js';
import type { HostEngine } from './sim-world-options.js';

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
  /** What answers the host module on the hosts (`--host-engine`; default the model). */
  readonly hostEngine?: HostEngine;
  /** Hears each line of the operator's log (`wmco sim` writes them to its log file). */
  readonly logSink?: (line: string) => void;
}

type Statuses = [string, InstanceStatus | undefined][];

/** What `follow` watches: a world's hosts and the status the operator published for each. */
export interface FollowedWorld {
  readonly hosts: SimWorld['hosts'];
  status(address: string): Promise<InstanceStatus | undefined>;
}

const over = (deadline: number, signal: AbortSignal | undefined): boolean =>
  Date.now() > deadline || signal?.aborted === true;

/** Prints each host's phase changes until every host is Ready or Failed (or time is up, or `signal` aborts). */
export async function follow(
  world: FollowedWorld,
  o: Pick<DemoOptions, 'out' | 'timeoutMs'> & { readonly signal?: AbortSignal },
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
    if (settled || over(deadline, o.signal)) return statuses;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** How long every entry must stay final before the demo ends. */
const SETTLE_MS = 2000;

/** Like `follow`, per windows-instances entry of a demo (a host may have several), with the world's own lines. */
async function followEntries(driver: DemoDriver, o: DemoOptions, t0: number): Promise<RowState[]> {
  const last = new Map<string, string>();
  let settledSince: number | undefined;
  const deadline = Date.now() + o.timeoutMs;
  for (;;) {
    const states = await driver.states();
    driver.rows.forEach((r, i) => {
      const s = states[i];
      const phase = s === 'Removed' ? s : (s?.phase ?? '');
      if (s && s !== 'Removed' && last.get(r.key) !== phase) o.out(progressLine(r.label, s, t0));
      last.set(r.key, phase);
    });
    // Final only once it stays final: the operator retries a failed join on its own (a host that streamed
    // endless output is retried at once), so a Failed seen between two attempts is not the end.
    settledSince = driver.settled(states) ? (settledSince ?? Date.now()) : undefined;
    if ((settledSince !== undefined && Date.now() - settledSince >= SETTLE_MS) || Date.now() > deadline)
      return states;
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
    // On AWS, Azure and GCP the hosts and the Machines are instances of the platform's simulated cloud.
    cloud: simCloudPlatforms().includes(o.platform),
    ...(o.hostEngine ? { hostEngine: o.hostEngine } : {}),
    ...(o.logSink ? { logSink: o.logSink } : {}),
  });
  try {
    o.out(
      `simulated cluster ${world.cluster.server.url} (platform ${world.cluster.platform}), ${o.hosts.length} Windows hosts over SSH`,
    );
    await world.createPrivateKeySecret();
    const driver = new DemoDriver(world, (label, line) => o.out(worldLine(label, line, t0)));
    o.out(`windows-instances: ${(await driver.start()).join(', ')}`);
    await o.beforeOperator?.(world);
    await world.startOperator();
    const machines = o.machineSets
      ? runDemoMachineSets(world, o.machineSets, o.platform, o)
      : Promise.resolve(true);
    const states = await followEntries(driver, o, t0);
    o.out('');
    for (const line of driver.report()) o.out(line);
    o.out(summaryTable(driver.rows.map((r, i) => [r.label, states[i]])));
    const machinesOk = await machines;
    await o.whileRunning?.(world);
    return machinesOk && driver.ok(states);
  } finally {
    await world.stop();
  }
}
