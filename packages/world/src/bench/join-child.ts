// One measurement of `pnpm bench join` in a process of its own (join.ts starts it): either this machine's
// SSH throughput or one join of `n` hosts. Each figure starts from a fresh process, so none pays for the
// memory, caches and garbage of the measurements before it. Prints one JSON line; not a bench by itself.
import { availableParallelism } from 'node:os';
import { rawThroughput } from '@wmco/sim';
import { runJoin } from './join-run.js';
import type { HostEngine } from '../world/sim-world-options.js';

/** What join.ts asks of a child: one argument, this JSON. */
export type JoinChildTask =
  | { readonly task: 'ssh'; readonly file: BenchFile }
  | {
      readonly task: 'join';
      readonly hosts: number;
      readonly payloadDir: string;
      readonly joins: number;
      readonly uploads: number;
      /** The model unless said. */
      readonly engine?: HostEngine;
      /** Hosts per host process (default: host-processes.ts's defaultHostsPerProcess). */
      readonly hostsPerProcess?: number;
      /** The operator process's node flags (default: the image's, OPERATOR_NODE_FLAGS). */
      readonly operatorNodeOptions?: readonly string[];
    };

/** What every measurement's process reports besides its figure. */
export interface ChildReport {
  /** Peak RSS of the process: the simulated API server of this one measurement (or the SSH throughput's hosts). */
  readonly peakRssMiB: number;
  /** The V8/Node options it ran with (join-measure.ts's MEASUREMENT_V8_FLAGS). */
  readonly execArgv: readonly string[];
}

/** The file uploaded to measure the SSH throughput (the payload's largest archive). */
export interface BenchFile {
  readonly name: string;
  readonly localPath: string;
  readonly sha256: string;
  readonly size: number;
}

/**
 * This machine's SSH throughput (bytes/s): the best of plain ssh2 `fastPut` uploads of `file` to free-cost
 * hosts at once, with ssh2's default 32 KiB writes and with 128 and 254 KiB writes (Windows
 * OpenSSH takes up to 256 KiB), to 2, 4 and 8 hosts: the limit must not depend on this implementation's
 * choice of write size or concurrency.
 */
async function sshThroughput(file: BenchFile): Promise<number> {
  const hosts = [...new Set([2, 4, 8, availableParallelism()])];
  let best = 0;
  for (const n of hosts)
    for (const kib of [32, 128, 254]) best = Math.max(best, await rawThroughput(file, n, kib * 1024));
  return best;
}

async function main(): Promise<void> {
  const t = JSON.parse(process.argv[2] ?? '') as JoinChildTask;
  const result =
    t.task === 'ssh'
      ? { sshBytesPerSec: await sshThroughput(t.file) }
      : {
          run: await runJoin(t.hosts, t.payloadDir, {
            joins: t.joins,
            uploads: t.uploads,
            ...(t.engine ? { engine: t.engine } : {}),
            ...(t.hostsPerProcess ? { hostsPerProcess: t.hostsPerProcess } : {}),
            ...(t.operatorNodeOptions ? { operatorNodeOptions: t.operatorNodeOptions } : {}),
          }),
        };
  const report: ChildReport = {
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    execArgv: process.execArgv,
  };
  process.stdout.write(`${JSON.stringify({ ...result, ...report })}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench join: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
