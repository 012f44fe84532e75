import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { readPayloadManifest } from '@wmco/core';
import { type InstanceStatus } from '@wmco/core/internal';
import { DEFAULT_HOST_COSTS, OPERATOR_NAMESPACE, type ServiceRecord } from '@wmco/sim';
import { loadBuiltinProviders, OPERATOR_NODE_FLAGS } from '@wmco/operator';
import { DEFAULT_VXLAN_PORT, SimWorld } from '../world/sim-world.js';
import type { HostEngine } from '../world/sim-world-options.js';
import { until } from '../world/world-fixture.js';
import { defaultHostsPerProcess, HostProcesses } from './host-processes.js';
import { ms, type JoinWork } from './join-limit.js';
import { MEASUREMENT_V8_FLAGS } from './join-measure.js';
import { usageBetween, usageNow } from './join-usage.js';
import { plainShip } from './plain-ship-run.js';
import type { PlainShipResult } from './plain-ship.js';
import { sampleProcess } from './proc-stats.js';
import { startScaleOperator, type ScaleOperator } from './scale-process.js';

export interface JoinRun {
  readonly hosts: number;
  /** Distinct errors of joins that failed (and were retried) on the way. */
  readonly failures: string[];
  readonly seconds: number;
  /** Seconds between the two CPU samples (the join's start, and every host seen Ready). */
  readonly sampledSeconds: number;
  readonly work: JoinWork[];
  /** The services running on each host at the end (what its join had to start). */
  readonly services: ServiceSnapshot[][];
  /** Mean seconds per phase over the hosts (where the time went). */
  readonly phases: Record<string, number>;
  /**
   * CPU seconds of this process from listing the hosts to the last Ready: the simulated API server and its
   * controllers, and the bench's own status reads (the hosts and the operator have processes of their own).
   */
  readonly cpuSeconds: number;
  /** The processes the simulated hosts ran in (host-processes.ts). */
  readonly hostProcesses: number;
  /** CPU seconds of all host processes together over the same time. */
  readonly hostsCpuSeconds: number;
  /**
   * CPU seconds of the host processes' descendants over the same time, ended or running: the PowerShell
   * processes of the `powershell` host engine (the module's own cost); 0 with the model.
   */
  readonly hostsChildrenCpuSeconds: number;
  /** Peak resident memory of the largest host process (start-up included), MiB. */
  readonly hostsPeakRssMiB: number;
  /** The busiest host process's event loop over the same time (0-1). */
  readonly hostsEventLoopBusy: number;
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
   * for I/O). Near 1, the joins wait for this one thread, which carries the simulated API server.
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

/** How a join measurement runs: joins and uploads at once (the operator's), the hosts' engine and processes. */
export interface JoinRunOptions {
  readonly joins: number;
  readonly uploads: number;
  /** The model unless said. */
  readonly engine?: HostEngine;
  /** Hosts per host process (default: defaultHostsPerProcess on this machine's cores). */
  readonly hostsPerProcess?: number;
  /** The operator process's node flags (default: the image's, OPERATOR_NODE_FLAGS). */
  readonly operatorNodeOptions?: readonly string[];
}

/** What waiting for every host's Ready saw. */
interface Readiness {
  readonly failures: Set<string>;
  /** Each host's counters when it turned Ready, before any later drift check adds to them. */
  readonly work: Map<string, JoinWork>;
  readonly status: Map<string, InstanceStatus>;
}

/** Notes failures and the hosts that turned Ready since the last look; returns those. */
function noteStatuses(
  all: Record<string, InstanceStatus>,
  addresses: readonly string[],
  r: Readiness,
): string[] {
  const turned: string[] = [];
  for (const a of addresses) {
    const s = all[a];
    if (s?.phase === 'Failed') r.failures.add(s.lastError ?? 'no error recorded');
    if (s?.phase !== 'Ready' || r.status.has(a)) continue;
    r.status.set(a, s);
    turned.push(a);
  }
  return turned;
}

/**
 * Waits until every host is Ready. One read of the status ConfigMap per tick for every host (the bench must
 * not load the CPU it measures), and one question to the host processes when hosts turned Ready.
 */
async function everyHostReady(world: SimWorld, hosts: HostProcesses): Promise<Readiness> {
  const r: Readiness = { failures: new Set(), work: new Map(), status: new Map() };
  const addresses = hosts.hosts.map((h) => h.address);
  await until(
    'every host Ready',
    async () => {
      const turned = noteStatuses(await world.statuses(), addresses, r);
      if (turned.length > 0) for (const s of await hosts.snapshots(turned)) r.work.set(s.address, s.work);
      return r.status.size === addresses.length ? true : undefined;
    },
    1_800_000,
  );
  return r;
}

/** The operator as the image runs it (its node flags unless replaced, `wmco run`'s runtime), in a process of its own. */
async function operatorFor(world: SimWorld, payloadDir: string, o: JoinRunOptions): Promise<ScaleOperator> {
  return startScaleOperator(
    {
      kubeconfig: join(world.dir, 'operator.kubeconfig'),
      namespace: OPERATOR_NAMESPACE,
      payloadDir,
      parallelJoins: o.joins,
      parallelUploads: o.uploads,
      // `wmco run`'s default: a Ready node is not looked at again during the measurement.
      driftRepairIntervalMs: 120_000,
    },
    o.operatorNodeOptions ?? OPERATOR_NODE_FLAGS,
  );
}

/**
 * One world, `n` hosts, the given payload: the time from listing them in windows-instances to the last
 * Ready. The simulated API server runs in this process, the hosts in processes of their own (`perProcess`
 * each), the operator in another; all of them are stopped before this returns or throws.
 */
export async function runJoin(n: number, payloadDir: string, o: JoinRunOptions): Promise<JoinRun> {
  const world = await SimWorld.start({ hosts: [], providers: await loadBuiltinProviders(), payloadDir });
  let hosts: HostProcesses | undefined;
  let op: ScaleOperator | undefined;
  try {
    const names = Array.from({ length: n }, (_, i) => `WIN-BENCH-${i + 1}`);
    const perProcess = o.hostsPerProcess ?? defaultHostsPerProcess(n, availableParallelism());
    hosts = await HostProcesses.start(
      names,
      perProcess,
      {
        authorizedKey: world.publicKey,
        costs: DEFAULT_HOST_COSTS,
        payloadDir,
        vxlanPort: DEFAULT_VXLAN_PORT,
        engine: o.engine ?? 'model',
        dir: world.dir,
      },
      MEASUREMENT_V8_FLAGS,
    );
    await world.createPrivateKeySecret();
    op = await operatorFor(world, payloadDir, o);
    const operator = op;
    await until('the operator to lead', async () => ((await operator.sample()).leading ? true : undefined));
    const apiRoundTripSeconds = await apiRoundTrip(world);
    const op0 = await sampleProcess(operator.pid);
    const u0 = await usageNow(hosts);
    const t0 = Date.now();
    await world.setInstances(
      Object.fromEntries(hosts.hosts.map((h) => [h.address, 'username=Administrator'])),
    );
    const ready = await everyHostReady(world, hosts);
    const op1 = await sampleProcess(operator.pid);
    const u1 = await usageNow(hosts);
    const t1 = Date.now();
    const statuses = [...ready.status.values()];
    const last = Math.max(...statuses.map((s) => Date.parse(s.since)));
    const phases: Record<string, number> = {};
    for (const s of statuses)
      for (const [p, v] of Object.entries(s.phaseSeconds)) phases[p] = ms((phases[p] ?? 0) + v / n);
    const work = hosts.hosts.map((h) => ready.work.get(h.address)!);
    const services = (await hosts.snapshots(hosts.hosts.map((h) => h.address))).map((s) => s.services);
    const plain = await plainShip(
      { hosts: hosts.hosts, dir: world.dir, privateKey: world.privateKey },
      payloadDir,
    );
    return {
      hosts: n,
      operatorCpuSeconds: op1.cpuSeconds - op0.cpuSeconds,
      operatorPeakRssMiB: op1.peakRssBytes / 2 ** 20,
      bytesShipped: work.reduce((b, w) => b + w.bytes, 0),
      plain,
      failures: [...ready.failures],
      seconds: (last - t0) / 1000,
      sampledSeconds: (t1 - t0) / 1000,
      phases,
      apiRoundTripSeconds,
      hostProcesses: hosts.processes.length,
      ...usageBetween(u0, u1),
      services,
      work,
    };
  } finally {
    await op?.stop();
    await hosts?.stop();
    await world.stop();
  }
}
