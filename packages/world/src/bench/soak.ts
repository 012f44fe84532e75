// `pnpm bench soak [--hosts 100] [--seed N] [--faults 40] [--day-seconds 240] [--parallel-joins 10]
// [--drift-interval 4] [--settle-seconds 600]`: `hosts` simulated BYOH hosts (this process: the API server
// and the hosts, tiny payload as bench scale) joined by the operator in its own process (scale-operator.js),
// then an accelerated day of `faults` random faults of the fault matrix (soak-schedule.ts, seeded: the same
// seed gives the same schedule; soak-faults.ts injects them). After the day, a reference host never faulted
// joins cleanly, and the bench waits (at most --settle-seconds) until every host is Ready with exactly the
// reference's files and services. One JSON line: hosts, faults, stuckNodes, partialNodes, rssStartMiB,
// rssEndMiB, maxLaneWaitSeconds; exit 1, naming why, on a stuck or partial node or RSS grown beyond 10 %.
import { parseArgs } from 'node:util';
import { OPERATOR_NAMESPACE } from '@wmco/sim';
import { until } from '../world/world-fixture.js';
import { sampleProcess } from './proc-stats.js';
import { MAX_SCALE_NODES } from './scale-network.js';
import { startScaleWorld, type ScaleWorld } from './scale-world.js';
import { endSoakFaults, injectSoakFault, type SoakTarget } from './soak-faults.js';
import { soakFailures, soakFigures } from './soak-figures.js';
import { SoakOperator } from './soak-operator.js';
import { randomSeed, soakSchedule, type SoakFault } from './soak-schedule.js';
import { configurationDiff, settleSoak } from './soak-settle.js';

interface SoakOptions {
  readonly hosts: number;
  readonly seed: number;
  readonly faults: number;
  readonly daySeconds: number;
  readonly parallelJoins: number;
  readonly driftIntervalS: number;
  readonly settleSeconds: number;
}

function options(argv: readonly string[]): SoakOptions {
  const { values: v } = parseArgs({
    args: [...argv],
    options: Object.fromEntries(
      ['hosts', 'seed', 'faults', 'day-seconds', 'parallel-joins', 'drift-interval', 'settle-seconds'].map(
        (k) => [k, { type: 'string' as const }],
      ),
    ),
    strict: true,
  });
  const num = (k: string, d: number): number => (v[k] === undefined ? d : Number(v[k]));
  const o = {
    hosts: num('hosts', 100),
    seed: num('seed', randomSeed()),
    faults: num('faults', 40),
    daySeconds: num('day-seconds', 240),
    parallelJoins: num('parallel-joins', 10),
    driftIntervalS: num('drift-interval', 4),
    settleSeconds: num('settle-seconds', 600),
  };
  const whole = (n: number, min: number, max: number): boolean => Number.isInteger(n) && n >= min && n <= max;
  if (
    !whole(o.hosts, 1, MAX_SCALE_NODES - 1) ||
    !whole(o.seed, 0, 2 ** 32 - 1) ||
    !whole(o.faults, 0, 10_000)
  )
    throw new Error(`--hosts takes 1-${MAX_SCALE_NODES - 1}, --seed 0-4294967295, --faults 0-10000`);
  if (!whole(o.parallelJoins, 1, 50) || !(o.daySeconds > 0 && o.driftIntervalS > 0 && o.settleSeconds > 0))
    throw new Error(
      '--parallel-joins takes 1-50; --day-seconds, --drift-interval, --settle-seconds positive seconds',
    );
  return o;
}

const log = (line: string): void => console.log(line);
const mib = (bytes: number): number => Math.round(bytes / 2 ** 20);

/** Lists the fleet and waits until it is Ready, then one drift cycle (the operator's steady state). */
async function joinFleet(world: ScaleWorld, op: SoakOperator, hosts: number): Promise<void> {
  const t0 = Date.now();
  await world.list(hosts);
  await until(
    `${hosts} hosts Ready`,
    async () => ((await world.ready()) >= hosts ? true : undefined),
    1_200_000,
    1000,
  );
  log(`${hosts} hosts Ready after ${Math.round((Date.now() - t0) / 1000)} s`);
  await op.driftChecks(hosts);
}

/** Injects each fault at its time of the day (a fault that takes long, an upgrade, delays the next ones). */
async function runDay(t: SoakTarget, schedule: readonly SoakFault[], dayMs: number): Promise<void> {
  const t0 = Date.now();
  const wait = (atMs: number): Promise<void> =>
    new Promise((r) => setTimeout(r, Math.max(0, t0 + atMs - Date.now())));
  for (const f of schedule) {
    await wait(f.atMs);
    log(`  ${Math.round((Date.now() - t0) / 1000)} s: ${await injectSoakFault(t, f)}`);
  }
  await wait(dayMs);
  const unfired = endSoakFaults(t.fleet);
  log(
    `day over after ${Math.round((Date.now() - t0) / 1000)} s; ${unfired} armed apply fault(s) no apply took (disarmed)`,
  );
}

async function main(): Promise<number> {
  const o = options(process.argv.slice(2));
  const dayMs = o.daySeconds * 1000;
  const schedule = soakSchedule({ seed: o.seed, hosts: o.hosts, faults: o.faults, dayMs });
  log(`soak: seed ${o.seed}, ${o.hosts} hosts, ${o.faults} faults over a day of ${o.daySeconds} s`);
  // One more host than the fleet: the reference, joined only after the day, never faulted.
  const world = await startScaleWorld(o.hosts + 1, (l) => log(`  ${l}`));
  let op: SoakOperator | undefined;
  try {
    op = await SoakOperator.start(
      {
        kubeconfig: `${world.world.dir}/operator.kubeconfig`,
        namespace: OPERATOR_NAMESPACE,
        payloadDir: world.world.payloadDir,
        parallelJoins: o.parallelJoins,
        driftRepairIntervalMs: o.driftIntervalS * 1000,
        // An upgrade rolls the fleet 10 % at a time (wmco run's default, 1, would take the whole day).
        maxUnavailable: '10%',
      },
      log,
    );
    const fleet = world.hosts.slice(0, o.hosts);
    await joinFleet(world, op, o.hosts);
    const rssStartBytes = (await sampleProcess(await op.pid())).rssBytes;
    await op.resetLaneWait();
    log(`operator RSS ${mib(rssStartBytes)} MiB after the first joins; the day starts`);
    await runDay({ world, op, fleet, log }, schedule, dayMs);
    const end = await settleSoak(world, {
      fleet,
      reference: world.hosts[o.hosts]!,
      boundMs: o.settleSeconds * 1000,
      log,
    });
    const rssEndBytes = (await sampleProcess(await op.pid())).rssBytes;
    if (op.unexpectedExits > 0) log(`the operator process exited on its own ${op.unexpectedExits} time(s)`);
    if (end.stuck.length > 0) {
      const phases = new Map((await world.statuses()).map((st) => [st.address, st.phase ?? 'no phase']));
      log(`not Ready: ${end.stuck.map((a) => `${a} (${phases.get(a) ?? 'no status'})`).join(', ')}`);
    }
    if (end.partial.length > 0) {
      log(`Ready with another configuration: ${end.partial.join(', ')}; the first against the reference:`);
      const first = fleet.find((h) => h.host === end.partial[0])!;
      for (const l of configurationDiff(first, world.hosts[o.hosts]!)) log(`  ${l}`);
    }
    const f = soakFigures({
      hosts: o.hosts,
      faults: schedule.length,
      ...end,
      rssStartBytes,
      rssEndBytes,
      maxLaneWaitMs: await op.laneWaitMs(),
    });
    console.log(JSON.stringify(f));
    const why = soakFailures(f);
    if (why.length > 0) console.error(`bench soak (seed ${o.seed}) failed: ${why.join('; ')}`);
    return why.length > 0 ? 1 : 0;
  } finally {
    await op?.stop();
    await world.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`bench soak: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
