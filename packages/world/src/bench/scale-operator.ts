// The operator of `pnpm bench scale`, in its own process so that its memory and CPU are its own: the
// runtime `wmco run` starts, with `wmco run`'s defaults, except that it accepts the simulated hosts'
// loopback addresses and logs nowhere. One argument: the JSON of `ScaleOperatorArgs`. Not imported by the
// image's code; `@wmco/sim` is not loaded here.
import 'reflect-metadata';
import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeHeapSnapshot } from 'node:v8';
import { newRootContainer } from '@wmco/core';
import { loadBuiltinProviders } from '@wmco/operator';
import { createLogger } from '@wmco/operator';
import { OperatorMetrics } from '@wmco/operator';
import { OperatorRuntime } from '@wmco/operator';
import { Redactor } from '@wmco/operator';

/** How long a process that lost its Lease waits for its work to stop (`wmco run`'s bound). */
const LOST_LEADERSHIP_STOP_MS = 10_000;
/** The exit code of a process that lost its Lease (the bench starts another). */
const LOST_LEASE_EXIT_CODE = 3;

export interface ScaleOperatorArgs {
  readonly kubeconfig: string;
  readonly namespace: string;
  readonly payloadDir: string;
  readonly parallelJoins: number;
  /** `--parallel-uploads` (default: wmco run's, as many as join at once). */
  readonly parallelUploads?: number;
  readonly driftRepairIntervalMs: number;
  /** The operator version the nodes are annotated with (default: this build's); `pnpm bench soak`'s upgrades. */
  readonly version?: string;
  /** `--max-unavailable` (default: wmco run's, 1). */
  readonly maxUnavailable?: string;
}

/**
 * The operator's metrics, plus the longest wait of a key of the instances queue (`windows-instances`) from
 * being queued (after any retry backoff) until a worker took it: the queue hands a key out as soon as its
 * lane (join, maintain or remove) has room, so that wait is the key's wait for its lane. The same
 * observation feeds `wmco_workqueue_queue_duration_seconds`, whose buckets cannot give the maximum.
 */
class BenchMetrics extends OperatorMetrics {
  maxLaneWaitMs = 0;

  override queueMetrics(queue: string): ReturnType<OperatorMetrics['queueMetrics']> {
    const m = super.queueMetrics(queue);
    if (queue !== 'windows-instances') return m;
    return {
      ...m,
      queueLatencyMs: (waited) => {
        this.maxLaneWaitMs = Math.max(this.maxLaneWaitMs, waited);
        m.queueLatencyMs?.(waited);
      },
    };
  }
}

async function main(): Promise<void> {
  // It never outlives the bench that started it: when the IPC channel closes (the bench ended, however), it exits.
  process.on('disconnect', () => process.exit(1));
  const a = JSON.parse(process.argv[2] ?? '') as ScaleOperatorArgs;
  const redactor = new Redactor();
  // Every line formatted as `wmco run` formats it at info level, then dropped (the bench reads none), or
  // appended to the file WMCO_BENCH_OPERATOR_LOG names (to find out why a run does not finish).
  const logFile = process.env['WMCO_BENCH_OPERATOR_LOG'];
  const write = logFile ? (line: string): void => appendFileSync(logFile, line) : (): void => undefined;
  const logger = createLogger({ level: 'info', redactor, destination: { write } });
  const metrics = new BenchMetrics();
  const rt = await OperatorRuntime.start({
    config: {
      kubeconfig: a.kubeconfig,
      namespace: a.namespace,
      payloadDir: a.payloadDir,
      parallelJoins: a.parallelJoins,
      parallelUploads: a.parallelUploads,
      ...(a.maxUnavailable ? { maxUnavailable: a.maxUnavailable } : {}),
      debug: false,
      logLevel: 'info',
      probeAddress: '',
      leaderElection: true,
      identity: `wmco-scale-${process.pid}`,
      privateKeySecret: 'cloud-private-key',
      providerPackages: [],
      servicesLog: {},
      proxyEnv: {},
      keepLogsOnRemoval: true,
      driftRepairIntervalMs: a.driftRepairIntervalMs,
      allowLoopbackInstances: true,
    },
    providers: await loadBuiltinProviders(),
    ...(a.version ? { hooks: { version: a.version } } : {}),
    container: newRootContainer(),
    logger,
    redactor,
    metrics,
  });
  // The bench asks for the drift checks finished so far (wmco_drift_checks_total, every result) and whether
  // this process leads with its caches synced.
  process.on('message', (m) => {
    if (m === 'heap-snapshot') process.send?.({ heapSnapshot: writeHeapSnapshot() });
    if (m === 'reset-lane-wait') process.send?.({ laneWaitReset: (metrics.maxLaneWaitMs = 0) });
    if (m !== 'sample') return;
    void metrics.driftChecks.get().then((c) => {
      const driftChecks = c.values.reduce((n, v) => n + v.value, 0);
      const leading = rt.leading && rt.synced;
      process.send?.({
        driftChecks,
        memory: process.memoryUsage(),
        leading,
        maxLaneWaitMs: metrics.maxLaneWaitMs,
      });
    });
  });
  process.once('SIGTERM', () => void rt.stop().then(() => process.exit(0)));
  process.send?.('started');
  // As `wmco run`: a lost Lease stops the in-flight work (bounded) and ends the process, which its
  // Deployment (here the bench) starts again. Without the exit a process that lost its Lease lived on
  // without leading, and nothing joined the hosts any more.
  if ((await rt.done) === 'lost') {
    await Promise.race([rt.stop(), sleep(LOST_LEADERSHIP_STOP_MS, undefined, { ref: false })]);
    process.stderr.write('scale operator: lost the leader lease; exiting\n');
    process.exit(LOST_LEASE_EXIT_CODE);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`scale operator: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
