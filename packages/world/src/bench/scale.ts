// `pnpm bench scale [--nodes 1000] [--drift-interval 4] [--intervals 30] [--parallel-joins 50] [--batch 50]
// [--heap-snapshot] [--operator-node-options=--max-old-space-size=160]`: the operator in its own process, with the image
// entrypoint's node flags unless --operator-node-options replaces them (runtime/node-flags.ts), manages `nodes` simulated Windows hosts (the API server in this process, the hosts in processes of their
// own, one per core, with a tiny payload so that joining them all stays short: scale-fleet.ts). After every node is Ready and one drift cycle has
// passed, one hour of `wmco run` is replayed at accelerated drift intervals (120 s → --drift-interval, so
// 30 intervals; --intervals replays fewer: `--drift-interval 120 --intervals 2` joins and measures at wmco
// run's own interval, for fleets whose checks this machine cannot run faster): the operator's steady-state
// RSS, CPU seconds per drift cycle and API requests per minute;
// then a registry-mirror change (an ImageDigestMirrorSet) and the seconds until it reached every node.
import { parseArgs } from 'node:util';
import { OPERATOR_NAMESPACE } from '@wmco/sim';
import { until } from '../world/world-fixture.js';
import { operatorNodeOptions } from './node-options.js';
import { ms } from './join-limit.js';
import { sampleProcess } from './proc-stats.js';
import { mirrorChangeSeconds } from './scale-mirror.js';
import { batchSummary, scaleFigures } from './scale-figures.js';
import { MAX_SCALE_NODES } from './scale-network.js';
import { steadyState } from './scale-steady.js';
import { startScaleFleet, type ScaleFleet } from './scale-fleet.js';
import { SoakOperator } from './soak-operator.js';

/** `wmco run`'s drift repair interval, which the bench accelerates. */
const REAL_DRIFT_INTERVAL_S = 120;
/** Drift intervals in one real hour of `wmco run`. */
const HOUR_INTERVALS = 3600 / REAL_DRIFT_INTERVAL_S;

interface ScaleOptions {
  readonly nodes: number;
  readonly driftIntervalS: number;
  /** Drift intervals in the steady-state window (30: one hour of wmco run). */
  readonly intervals: number;
  readonly parallelJoins: number;
  /** Write a heap snapshot of the operator at the end of the steady state (where the memory goes). */
  readonly heapSnapshot: boolean;
  /** Hosts listed in windows-instances at a time while joining. */
  readonly batch: number;
  /** Flags for the operator's node process (default: the image entrypoint's, OPERATOR_NODE_FLAGS). */
  readonly operatorNodeOptions: string[];
}

function options(argv: readonly string[]): ScaleOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      nodes: { type: 'string' },
      'drift-interval': { type: 'string' },
      intervals: { type: 'string' },
      'parallel-joins': { type: 'string' },
      'heap-snapshot': { type: 'boolean' },
      batch: { type: 'string' },
      'operator-node-options': { type: 'string' },
    },
    strict: true,
  });
  const o = {
    nodes: Number(values.nodes ?? 1000),
    driftIntervalS: Number(values['drift-interval'] ?? 4),
    intervals: Number(values.intervals ?? HOUR_INTERVALS),
    parallelJoins: Number(values['parallel-joins'] ?? 50),
    heapSnapshot: values['heap-snapshot'] === true,
    batch: Number(values.batch ?? 50),
    operatorNodeOptions: operatorNodeOptions(values['operator-node-options']),
  };
  checkOptions(o);
  return o;
}

function checkOptions(o: ScaleOptions): void {
  const whole = (n: number, max: number): boolean => Number.isInteger(n) && n >= 1 && n <= max;
  const wrong =
    !whole(o.nodes, MAX_SCALE_NODES) ||
    !whole(o.parallelJoins, 50) ||
    !whole(o.intervals, HOUR_INTERVALS) ||
    !(o.driftIntervalS > 0);
  if (wrong)
    throw new Error(
      `--nodes takes 1-${MAX_SCALE_NODES}, --parallel-joins 1-50, --intervals 1-${HOUR_INTERVALS}, ` +
        '--drift-interval a positive number of seconds',
    );
}

/**
 * Lists the hosts `batch` at a time, each batch once the ones before are Ready. (All 1,000 at once stalled:
 * after 3.5 minutes 45 were Ready and 45 kubelet CSRs waited for approval; see docs/benchmarks.md.)
 */
async function joinAll(world: ScaleFleet, op: SoakOperator, nodes: number, batch: number): Promise<void> {
  const t0 = Date.now();
  for (
    let listed = Math.min(batch, nodes), from = 0;
    ;
    from = listed, listed = Math.min(listed + batch, nodes)
  ) {
    await world.list(listed);
    await readyCount(world, op, listed, t0);
    const addresses = new Set(world.addresses.slice(from, listed));
    const statuses = (await world.statuses()).filter((s) => addresses.has(s.address));
    console.log(`  hosts ${from + 1}-${listed}: ${batchSummary(statuses)}`);
    if (listed === nodes) break;
  }
  console.log(`every node Ready after ${ms((Date.now() - t0) / 1000)} s`);
}

async function readyCount(world: ScaleFleet, op: SoakOperator, nodes: number, t0: number): Promise<void> {
  let shown = 0;
  await until(
    `${nodes} nodes Ready`,
    async () => {
      const ready = await world.ready();
      if (Date.now() - shown > 30_000) {
        shown = Date.now();
        const p = await sampleProcess(await op.pid()).catch(() => ({ rssBytes: 0 }));
        console.log(
          `  ${ready}/${nodes} Ready after ${Math.round((Date.now() - t0) / 1000)} s, operator RSS ${Math.round(p.rssBytes / 2 ** 20)} MiB`,
        );
      }
      return ready >= nodes ? true : undefined;
    },
    20 * 60_000,
    // Each look reads the status ConfigMap (a megabyte at 2,000 nodes) in the world's own process.
    2000,
  );
}

/** The operator's memory as V8 sees it (heap, buffers outside it), and a heap snapshot when asked. */
async function describeMemory(op: SoakOperator, snapshot: boolean): Promise<void> {
  const m = (await op.sample()).memory;
  const mib = (n: number): number => Math.round(n / 2 ** 20);
  console.log(
    `operator memory: rss ${mib(m.rss)} MiB = heap ${mib(m.heapUsed)} used of ${mib(m.heapTotal)} MiB, ` +
      `external ${mib(m.external)} MiB (array buffers ${mib(m.arrayBuffers)} MiB), the rest code and V8's own`,
  );
  if (snapshot) console.log(`operator heap snapshot: ${await op.heapSnapshot()}`);
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  // One real hour is 30 drift intervals; the bench replays them (or --intervals of them) at its interval.
  const window = o.intervals * o.driftIntervalS;
  console.log(
    `${o.nodes} nodes, drift every ${o.driftIntervalS} s (wmco run: ${REAL_DRIFT_INTERVAL_S} s); ` +
      `the steady state is ${o.intervals} intervals (${o.intervals === HOUR_INTERVALS ? 'one hour' : `${(o.intervals * REAL_DRIFT_INTERVAL_S) / 60} min`} of wmco run), ${window} s`,
  );
  const world = await startScaleFleet(o.nodes, (l) => console.log(`  ${l}`));
  let op: SoakOperator | undefined;
  try {
    op = await SoakOperator.start(
      {
        kubeconfig: `${world.world.dir}/operator.kubeconfig`,
        namespace: OPERATOR_NAMESPACE,
        payloadDir: world.world.payloadDir,
        parallelJoins: o.parallelJoins,
        driftRepairIntervalMs: o.driftIntervalS * 1000,
      },
      (l) => console.log(l),
      o.operatorNodeOptions,
    );
    await joinAll(world, op, o.nodes, o.batch);
    const steady = await steadyState(world, op, { windowMs: window * 1000, nodes: o.nodes, attempts: 3 });
    const { start, end } = steady;
    const fleet = { count: o.nodes, mirrored: () => world.mirrored() };
    const mirror = await mirrorChangeSeconds(world.world.adminKubeconfig, fleet, (l) =>
      console.log(`  ${l}`),
    );
    const f = {
      ...scaleFigures({ nodes: o.nodes, start, end, rssBytes: steady.rssBytes }),
      mirrorChangeSeconds: ms(mirror),
    };
    const peak = (await sampleProcess(await op.pid())).peakRssBytes;
    const cycles = ms((end.driftChecks - start.driftChecks) / o.nodes);
    console.log(
      `steady state over ${ms((end.atMs - start.atMs) / 1000)} s: ${cycles} drift cycles (${o.intervals} expected), operator RSS ≤ ${f.rssMiB} MiB ` +
        `(peak of this process ${Math.round(peak / 2 ** 20)} MiB), ${f.cpuSecondsPerDriftCycle} CPU s per drift cycle, ${f.apiRequestsPerMinute} API requests/min`,
    );
    console.log(
      `operator requests over the steady state: ${steady.requests.map(([k, n]) => `${k} ${n}`).join(', ')}; ` +
        `operator processes restarted (lost Lease or crash): ${op.unexpectedExits}`,
    );
    console.log(`a registry-mirror change reached all ${o.nodes} nodes in ${ms(mirror)} s`);
    await describeMemory(op, o.heapSnapshot);
    console.log(JSON.stringify(f));
  } finally {
    await op?.stop();
    await world.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`bench scale: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
