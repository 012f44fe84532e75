import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readPayloadManifest } from '@wmco/core';
import { type InstanceStatus } from '@wmco/core/internal';
import { DEFAULT_HOST_COSTS, OPERATOR_NAMESPACE, type ServiceRecord } from '@wmco/sim';
import { loadBuiltinProviders, OPERATOR_NODE_FLAGS } from '@wmco/operator';
import { SimWorld } from '../world/sim-world.js';
import type { HostEngine } from '../world/sim-world-options.js';
import { until } from '../world/world-fixture.js';
import { ms, type JoinWork } from './join-limit.js';
import { plainShip } from './plain-ship-run.js';
import type { PlainShipResult } from './plain-ship.js';
import { sampleProcess } from './proc-stats.js';
import { startScaleOperator, type ScaleOperator } from './scale-process.js';

export interface JoinRun {
  readonly hosts: number;
  /** Distinct errors of joins that failed (and were retried) on the way. */
  readonly failures: string[];
  readonly seconds: number;
  readonly work: JoinWork[];
  /** The services running on each host at the end (what its join had to start). */
  readonly services: ServiceSnapshot[][];
  /** Mean seconds per phase over the hosts (where the time went). */
  readonly phases: Record<string, number>;
  /** CPU seconds of this process (the simulated world) from listing the hosts to the last Ready. */
  readonly cpuSeconds: number;
  /** CPU seconds of the operator's process alone over the same time. */
  readonly operatorCpuSeconds: number;
  /** Peak resident memory of the operator's process (start-up included), MiB. */
  readonly operatorPeakRssMiB: number;
  /** Bytes the hosts received from the operator over SFTP during the join. */
  readonly bytesShipped: number;
  /** A plain ssh2 client in its own process shipping the same payload files to the same hosts, after. */
  readonly plain: PlainShipResult;
  /** Median seconds of one API request (a GET of the operator's namespace), measured in this world. */
  readonly apiRoundTripSeconds: number;
  /**
   * The share of that time this process's event loop was busy (Node's event loop utilization: not waiting
   * for I/O). Near 1, the joins wait for this one thread, which carries the hosts' end of every SSH
   * connection and the simulated API server and kubelets (the operator has a process of its own).
   */
  readonly eventLoopBusy: number;
}

/** The compressed bytes of each payload file a node of this world receives (the core payload), by name. */
export async function payloadFileBytes(payloadDir: string): Promise<Map<string, number>> {
  const entries = await readPayloadManifest(payloadDir);
  const sizes = await Promise.all(
    entries.map(async (e) => [e.name, (await stat(join(payloadDir, e.source))).size] as const),
  );
  return new Map(sizes);
}

/** A service as the bench reads it off a simulated host. */
export type ServiceSnapshot = Pick<ServiceRecord, 'name' | 'dependencies' | 'commandLine'>;

function runningServices(services: readonly ServiceRecord[]): ServiceSnapshot[] {
  return services
    .filter((s) => s.state === 'running')
    .map((s) => ({ name: s.name, dependencies: [...s.dependencies], commandLine: s.commandLine }));
}

async function apiRoundTrip(world: SimWorld): Promise<number> {
  const api = world.admin();
  const samples: number[] = [];
  for (let i = 0; i < 21; i++) {
    const t0 = performance.now();
    await api.readNamespace({ name: 'default' });
    samples.push((performance.now() - t0) / 1000);
  }
  return samples.sort((a, b) => a - b)[10]!;
}

/** One world, `n` hosts, the given payload: the time from listing them in windows-instances to the last Ready. */
export async function runJoin(
  n: number,
  payloadDir: string,
  parallel: { readonly joins: number; readonly uploads: number },
  hostEngine: HostEngine = 'model',
): Promise<JoinRun> {
  const world = await SimWorld.start({
    hosts: Array.from({ length: n }, (_, i) => ({ hostname: `WIN-BENCH-${i + 1}` })),
    costs: DEFAULT_HOST_COSTS,
    providers: await loadBuiltinProviders(),
    payloadDir,
    parallelJoins: parallel.joins,
    parallelUploads: parallel.uploads,
    hostEngine,
  });
  let op: ScaleOperator | undefined;
  try {
    await world.createPrivateKeySecret();
    // The operator as the image runs it (its node flags, `wmco run`'s runtime) in a process of its own,
    // so that its CPU and memory are its own.
    const operator = await startScaleOperator(
      {
        kubeconfig: join(world.dir, 'operator.kubeconfig'),
        namespace: OPERATOR_NAMESPACE,
        payloadDir,
        parallelJoins: parallel.joins,
        parallelUploads: parallel.uploads,
        // `wmco run`'s default: a Ready node is not looked at again during the measurement.
        driftRepairIntervalMs: 120_000,
      },
      OPERATOR_NODE_FLAGS,
    );
    op = operator;
    await until('the operator to lead', async () => ((await operator.sample()).leading ? true : undefined));
    const apiRoundTripSeconds = await apiRoundTrip(world);
    const op0 = await sampleProcess(operator.pid);
    const cpu0 = process.cpuUsage();
    const elu0 = performance.eventLoopUtilization();
    const t0 = Date.now();
    await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
    const failures = new Set<string>();
    // Each host's counters when it turned Ready, before any later drift check adds to them. One read of
    // the status ConfigMap per tick for every host: the bench must not load the CPU it measures.
    const work = new Map<string, JoinWork>();
    const readyStatus = new Map<string, InstanceStatus>();
    await until(
      'every host Ready',
      async () => {
        const all = await world.statuses();
        for (const h of world.hosts.hosts) {
          const s = all[h.address];
          if (s?.phase === 'Failed') failures.add(s.lastError ?? 'no error recorded');
          if (s?.phase !== 'Ready' || readyStatus.has(h.address)) continue;
          readyStatus.set(h.address, s);
          work.set(h.address, {
            powershellStarts: h.sim.stats.powershellStarts,
            execs: h.sim.stats.execs,
            serviceStarts: h.sim.model.scm.events.filter((e) => e.action === 'start').length,
            bytes: h.sim.stats.bytesReceived,
          });
        }
        return readyStatus.size === n ? true : undefined;
      },
      1_800_000,
    );
    const ready = [...readyStatus.values()];
    const op1 = await sampleProcess(operator.pid);
    const cpu = process.cpuUsage(cpu0);
    const elu = performance.eventLoopUtilization(elu0);
    const last = Math.max(...ready.map((s) => Date.parse(s.since)));
    const phases: Record<string, number> = {};
    for (const s of ready)
      for (const [p, v] of Object.entries(s.phaseSeconds)) phases[p] = ms((phases[p] ?? 0) + v / n);
    const work0 = world.hosts.hosts.map((h) => work.get(h.address)!);
    const plain = await plainShip(world, payloadDir);
    return {
      hosts: n,
      operatorCpuSeconds: op1.cpuSeconds - op0.cpuSeconds,
      operatorPeakRssMiB: op1.peakRssBytes / 2 ** 20,
      bytesShipped: work0.reduce((b, w) => b + w.bytes, 0),
      plain,
      failures: [...failures],
      seconds: (last - t0) / 1000,
      phases,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      apiRoundTripSeconds,
      eventLoopBusy: ms(elu.utilization),
      services: world.hosts.hosts.map((h) => runningServices(h.sim.model.scm.all())),
      work: work0,
    };
  } finally {
    await op?.stop();
    await world.stop();
  }
}
