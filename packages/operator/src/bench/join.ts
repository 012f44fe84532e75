// `pnpm bench join [--payload-mib N] [--parallel N]`: the BYOH join of 1 and of 10 simulated Windows
// hosts at the simulated default costs, with the physical limit (join-limit.ts) beside the figures.
import { parseArgs } from 'node:util';
import { CORE_PAYLOAD } from '@wmco/core';
import { DEFAULT_HOST_COSTS } from '@wmco/sim';
import { loadBuiltinProviders } from '../providers/baked-providers.js';
import { SimWorld } from '../world/sim-world.js';
import { phaseIs, until } from '../world/world-fixture.js';
import { joinLimit, ms, parallelLimit, type JoinWork } from './join-limit.js';

interface BenchOptions {
  /** Bytes of each payload file (the world writes CORE_PAYLOAD plus two platform files). */
  readonly payloadBytesPerFile: number;
  readonly parallel: number;
}

interface RunResult {
  readonly seconds: number;
  readonly work: JoinWork[];
  /** Mean seconds per phase over the hosts (where the time went). */
  readonly phases: Record<string, number>;
}

const PAYLOAD_FILES = CORE_PAYLOAD.length + 2;

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got '${raw}'`);
  return n;
}

function options(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: { 'payload-mib': { type: 'string' }, parallel: { type: 'string' } },
    strict: true,
  });
  const mib = values['payload-mib'];
  return {
    // Default small (4 KiB a file, as the tests use); --payload-mib N spreads N MiB over the files.
    payloadBytesPerFile:
      mib === undefined ? 4096 : Math.ceil((positive('payload-mib', mib, 1) * 1024 * 1024) / PAYLOAD_FILES),
    parallel: Math.floor(positive('parallel', values.parallel, 5)),
  };
}

/** One world, `n` hosts: the time from listing them in windows-instances to the last one Ready. */
async function run(n: number, o: BenchOptions): Promise<RunResult> {
  const world = await SimWorld.start({
    hosts: Array.from({ length: n }, (_, i) => ({ hostname: `WIN-BENCH-${i + 1}` })),
    costs: DEFAULT_HOST_COSTS,
    providers: await loadBuiltinProviders(),
    payloadBytesPerFile: o.payloadBytesPerFile,
    parallelJoins: o.parallel,
  });
  try {
    await world.createPrivateKeySecret();
    const op = await world.startOperator();
    await until('the operator to lead', () => Promise.resolve(op.leading && op.synced ? true : undefined));
    const t0 = Date.now();
    await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
    const ready = await Promise.all(
      world.hosts.hosts.map((h) => until(`${h.address} Ready`, phaseIs(world, h.address, 'Ready'), 600_000)),
    );
    const last = Math.max(...ready.map((s) => Date.parse(s.since)));
    const phases: Record<string, number> = {};
    for (const s of ready)
      for (const [p, v] of Object.entries(s.phaseSeconds)) phases[p] = ms((phases[p] ?? 0) + v / n);
    return {
      seconds: (last - t0) / 1000,
      phases,
      work: world.hosts.hosts.map((h) => ({
        powershellStarts: h.sim.stats.powershellStarts,
        execs: h.sim.stats.execs,
        serviceStarts: h.sim.model.scm.events.filter((e) => e.action === 'start').length,
        bytes: h.sim.stats.bytesReceived,
      })),
    };
  } finally {
    await world.stop();
  }
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const c = DEFAULT_HOST_COSTS;
  console.log(
    `costs: PowerShell start ${c.powershellStartMs} ms, service start ${c.serviceStartMs} ms, ` +
      `latency ${c.latencyMs} ms, bandwidth ${c.bandwidthBytesPerSec / 1e6} MB/s; ` +
      `payload ${o.payloadBytesPerFile} B x ${PAYLOAD_FILES} files; ${o.parallel} joins at once`,
  );
  const one = await run(1, o);
  const w = one.work[0]!;
  const limit1 = joinLimit(w, c);
  console.log(
    `1 host:   ${ms(one.seconds)} s   (limit ${ms(limit1.seconds)} s: PowerShell ${ms(limit1.parts.powershell)} s ` +
      `= ${w.powershellStarts} starts, services ${ms(limit1.parts.services)} s = ${w.serviceStarts} starts, ` +
      `round trips ${ms(limit1.parts.roundTrips)} s = ${w.execs} execs, transfer ${ms(limit1.parts.transfer)} s ` +
      `= ${w.bytes} B)`,
  );
  console.log(`          mean seconds per phase: ${JSON.stringify(one.phases)}`);
  const ten = await run(10, o);
  const limits10 = ten.work.map((x) => joinLimit(x, c).seconds);
  const limit10 = parallelLimit(Math.max(...limits10), 10, o.parallel);
  console.log(
    `10 hosts: ${ms(ten.seconds)} s   (limit ${ms(limit10)} s = ceil(10 / ${o.parallel}) x ` +
      `${ms(Math.max(...limits10))} s; per host ${mean(ten.work.map((x) => x.powershellStarts))} PowerShell ` +
      `starts, ${Math.round(mean(ten.work.map((x) => x.bytes)))} B)`,
  );
  console.log(`          mean seconds per phase: ${JSON.stringify(ten.phases)}`);
  console.log(
    JSON.stringify({
      join1Seconds: ms(one.seconds),
      join10Seconds: ms(ten.seconds),
      limit1Seconds: ms(limit1.seconds),
      psStartsPerJoin: w.powershellStarts,
      bytesPerJoin: w.bytes,
    }),
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`bench join: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
