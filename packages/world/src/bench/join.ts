// `pnpm bench join [--hosts 1,10,50] [--parallel N] [--uploads N] [--scale S] [--host-engine model|powershell]
// [--hosts-per-process N] [--operator-node-options="--flag ..."]` (defaults: wmco run's, the model, the hosts
// over one process per core, the image's node flags): fresh BYOH joins of simulated Windows
// hosts with the realistic payload (upstream's layout, ~550 MB, cached) at the default simulated costs,
// each beside a physical limit that does not depend on this implementation (join-limit.ts). Each figure is
// measured in a fresh process (join-child.ts): none pays for the memory and garbage of those before it.
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { DEFAULT_HOST_COSTS, realisticPayload } from '@wmco/sim';
import { cacheDir } from './cache-dir.js';
import { defaultParallelJoins, machineResources } from '@wmco/operator';
import { operatorNodeOptions } from './node-options.js';
import { ms } from './join-limit.js';
import { coresBusy, cpuPerGB, figure, type Figure } from './join-figure.js';
import { inChild, largestArchive } from './join-measure.js';
import { payloadFileBytes, type JoinRun } from './join-run.js';
import { parseHostEngine } from '../world/host-engine.js';
import type { HostEngine } from '../world/sim-world-options.js';

interface BenchOptions {
  readonly hosts: number[];
  readonly parallel: number;
  readonly uploads: number;
  readonly scale: number;
  /** What answers the module on the hosts: the model, or the real module under PowerShell 7. */
  readonly engine: HostEngine;
  /** Simulated hosts per host process; undefined: spread over one process per core (host-processes.ts). */
  readonly hostsPerProcess: number | undefined;
  /** The operator process's node flags (default: the image's, OPERATOR_NODE_FLAGS). */
  readonly operatorNodeOptions: string[];
}

/** The join measurement's optional settings, as its task carries them. */
function optionalTask(o: BenchOptions): { hostsPerProcess?: number; operatorNodeOptions?: string[] } {
  return {
    ...(o.hostsPerProcess ? { hostsPerProcess: o.hostsPerProcess } : {}),
    operatorNodeOptions: o.operatorNodeOptions,
  };
}

/** `--hosts-per-process`: a positive integer, or undefined when not given. */
function perProcessOption(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`--hosts-per-process takes a positive integer, not "${raw}"`);
  return n;
}

function options(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      hosts: { type: 'string' },
      parallel: { type: 'string' },
      uploads: { type: 'string' },
      scale: { type: 'string' },
      'host-engine': { type: 'string' },
      'hosts-per-process': { type: 'string' },
      'operator-node-options': { type: 'string' },
    },
    strict: true,
  });
  const hosts = (values.hosts ?? '1,10,50').split(',').map(Number);
  // The operator's own defaults (wmco run without --parallel-joins/--parallel-uploads), from this machine.
  const auto = defaultParallelJoins(machineResources());
  const parallel = Number(values.parallel ?? auto.parallelJoins);
  // wmco run caps uploads only with --parallel-uploads: as many as join at once.
  const uploads = Number(values.uploads ?? parallel);
  const scale = Number(values.scale ?? 1);
  if (hosts.some((n) => !Number.isInteger(n) || n < 1) || !(parallel >= 1) || !(uploads >= 1) || !(scale > 0))
    throw new Error(
      '--hosts takes positive integers (e.g. 1,10,50), --parallel, --uploads and --scale positive numbers',
    );
  const hostsPerProcess = perProcessOption(values['hosts-per-process']);
  const engine = parseHostEngine(values['host-engine'] ?? 'model');
  return {
    hosts,
    parallel: Math.floor(parallel),
    uploads: Math.floor(uploads),
    scale,
    engine,
    hostsPerProcess,
    operatorNodeOptions: operatorNodeOptions(values['operator-node-options']),
  };
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const c = DEFAULT_HOST_COSTS;
  const payload = await realisticPayload(cacheDir(), o.scale);
  const fileBytes = await payloadFileBytes(payload.dir);
  const compressed = [...fileBytes.values()].reduce((a, b) => a + b, 0);
  console.log(
    `payload ${payload.dir}: ${ms(payload.bytes / 1e6)} MB in all, ${ms(payload.compressedBytes / 1e6)} MB compressed; ` +
      `a node receives ${ms(compressed / 1e6)} MB of it`,
  );
  const { sshBytesPerSec: ssh } = await inChild<{ sshBytesPerSec: number }>({
    task: 'ssh',
    file: largestArchive(payload),
  });
  console.log(
    `costs: PowerShell start ${c.powershellStartMs} ms, service start ${c.serviceStartMs} ms, latency ${c.latencyMs} ms, ` +
      `link ${(c.bandwidthBytesPerSec * 8) / 1e9} Gbit/s per host; host engine ${o.engine}; ${o.parallel} joins and ${o.uploads} uploads at once; ` +
      `this machine's SSH throughput ${ms(ssh / 1e6)} MB/s`,
  );
  const figures: Figure[] = [];
  let peakRssMiB = 0;
  let apiPeak = 0;
  for (const n of o.hosts) {
    const { run, peakRssMiB: peak } = await inChild<{ run: JoinRun }>({
      task: 'join',
      hosts: n,
      payloadDir: payload.dir,
      joins: o.parallel,
      uploads: o.uploads,
      engine: o.engine,
      ...optionalTask(o),
    });
    const f = figure(run, fileBytes, ssh, availableParallelism());
    figures.push(f);
    peakRssMiB = Math.max(peakRssMiB, ms(run.operatorPeakRssMiB));
    apiPeak = Math.max(apiPeak, peak);
    console.log(f.line);
    console.log(`          mean seconds per phase: ${JSON.stringify(f.run.phases)}`);
    for (const e of f.run.failures) console.log(`          a join failed and was retried: ${e}`);
    console.log(
      `          CPU s/join: operator ${ms(f.run.operatorCpuSeconds / n)}, hosts ${ms(f.run.hostsCpuSeconds / n)} ` +
        `(${f.run.hostProcesses} process(es), busiest event loop ${Math.round(f.run.hostsEventLoopBusy * 100)} %), ` +
        `API server ${ms(f.run.cpuSeconds / n)}, the hosts' PowerShell processes ${ms(f.run.hostsChildrenCpuSeconds / n)}; peak RSS: operator ${ms(f.run.operatorPeakRssMiB)} MiB, ` +
        `largest host process ${ms(f.run.hostsPeakRssMiB)} MiB, API server ${ms(peak)} MiB`,
    );
  }
  const all = figures.flatMap((f) => f.run.work);
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const by = (n: number): Figure | undefined => figures.find((f) => f.run.hosts === n);
  const joins = figures.reduce((n, f) => n + f.run.hosts, 0);
  const cpu = cpuPerGB(figures.map((f) => f.run));
  // CPU seconds per join of each process kind, over every figure (start-up excluded).
  const perJoin = (f: (r: JoinRun) => number): number =>
    ms(figures.reduce((s, x) => s + f(x.run), 0) / joins);
  console.log(
    JSON.stringify({
      // Host counts besides 1, 10 and 50 (e.g. --hosts 1,5 with the PowerShell engine) get keys of their own.
      ...Object.fromEntries(
        figures.flatMap((f) => [
          [`join${f.run.hosts}Seconds`, ms(f.run.seconds)],
          [`limit${f.run.hosts}Seconds`, ms(f.limit)],
          [`coresBusy${f.run.hosts}`, coresBusy(f.run)],
        ]),
      ),
      join1Seconds: by(1) && ms(by(1)!.run.seconds),
      join10Seconds: by(10) && ms(by(10)!.run.seconds),
      join50Seconds: by(50) && ms(by(50)!.run.seconds),
      limit1Seconds: by(1) && ms(by(1)!.limit),
      limit10Seconds: by(10) && ms(by(10)!.limit),
      limit50Seconds: by(50) && ms(by(50)!.limit),
      psStartsPerJoin: ms(mean(all.map((w) => w.powershellStarts))),
      bytesPerJoin: Math.round(mean(all.map((w) => w.bytes))),
      operatorCpuPerGB: cpu.operator,
      plainSshCpuPerGB: cpu.plainSsh,
      cores: availableParallelism(),
      hostEngine: o.engine,
      // The operator's node flags: the image's unless --operator-node-options replaced them.
      operatorNodeFlags: o.operatorNodeOptions,
      operatorCpuSecondsPerJoin: perJoin((r) => r.operatorCpuSeconds),
      hostsCpuSecondsPerJoin: perJoin((r) => r.hostsCpuSeconds),
      // The module's own cost with --host-engine powershell: its processes' CPU (0 with the model).
      hostsPowerShellCpuSecondsPerJoin: perJoin((r) => r.hostsChildrenCpuSeconds),
      apiServerCpuSecondsPerJoin: perJoin((r) => r.cpuSeconds),
      hostProcesses: Object.fromEntries(figures.map((f) => [f.run.hosts, f.run.hostProcesses])),
      peakRssMiB,
      hostsPeakRssMiB: ms(Math.max(...figures.map((f) => f.run.hostsPeakRssMiB))),
      apiServerPeakRssMiB: ms(apiPeak),
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
